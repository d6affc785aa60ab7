import type { ProtocolInput } from '@rescuelog/sync-protocol/reference/first-aid';

export const protocol = {
  category: 'poisoning',
  title: 'Poisoning',
  summary: 'Find out what, how much and when; call for advice; never make the person vomit.',
  keywords: [
    'poison',
    'overdose',
    'swallowed',
    'pills',
    'tablets',
    'medicine',
    'chemicals',
    'paraffin',
    'bleach',
    'pesticide',
    'alcohol',
    'drugs',
    'gas',
    'carbon monoxide',
  ],
  callForHelp: [
    'Call emergency services if the person is drowsy, unresponsive, fitting, or has trouble breathing.',
    'For advice on any poisoning, call the Poisons Information Helpline, 0861 555 777.',
  ],
  warnings: [
    'Do not make the person vomit.',
    'Do not give milk, salt water or anything else by mouth unless the poisons helpline advises it.',
    'Do not enter a space with gas or fumes: wait for the fire service.',
    'Do not give mouth-to-mouth if there is poison on the lips; use a face shield or give compressions only.',
  ],
  variants: [
    {
      age: 'all',
      label: 'All ages',
      steps: [
        'Make sure the scene is safe, and move the person to fresh air if there are fumes and it is safe to do so.',
        'Find out what was taken, how much and when, and keep the container or packet.',
        'Call the Poisons Information Helpline or emergency services and follow their advice.',
        'Wipe poison off the lips and face, and rinse chemicals off the skin with plenty of water.',
        'If they are unresponsive and breathing, put them on their side in the recovery position.',
        'If they stop breathing normally, start CPR.',
        'Give the container and any vomit sample to the ambulance crew.',
      ],
    },
  ],
  guideline: {
    name: 'IFRC International First Aid, Resuscitation, and Education Guidelines 2020 (poisoning)',
    publisher: 'International Federation of Red Cross and Red Crescent Societies',
    year: 2020,
  },
} satisfies ProtocolInput;
