import type { ProtocolInput } from '@rescuelog/sync-protocol/reference/first-aid';

export const protocol = {
  category: 'seizures',
  title: 'Seizures',
  summary: 'Protect the person from injury, time the seizure, and put them on their side after.',
  keywords: [
    'seizure',
    'fit',
    'convulsion',
    'epilepsy',
    'shaking',
    'jerking',
    'febrile',
    'fever fit',
    'blank stare',
  ],
  callForHelp: [
    'Call emergency services if the seizure lasts more than five minutes, a second one follows, or it is their first seizure.',
    'Call if they are injured, pregnant, diabetic, in water, or do not wake up or breathe normally afterwards.',
  ],
  warnings: [
    'Do not hold the person down or stop their movements.',
    'Do not put anything in their mouth.',
    'Do not give food or drink until they are fully awake.',
  ],
  variants: [
    {
      age: 'all',
      label: 'All ages',
      steps: [
        'Note the time the seizure started.',
        'Move hard or sharp objects away and cushion the head.',
        'Loosen tight clothing around the neck.',
        'When the jerking stops, roll them onto their side in the recovery position.',
        'Check breathing, and start CPR if they do not breathe normally.',
        'Stay with them and reassure them as they come round; they may be confused.',
        'For a child with a high fever, remove extra clothing once the seizure has stopped.',
      ],
    },
  ],
  guideline: {
    name: 'IFRC International First Aid, Resuscitation, and Education Guidelines 2020 (seizures)',
    publisher: 'International Federation of Red Cross and Red Crescent Societies',
    year: 2020,
  },
} satisfies ProtocolInput;
