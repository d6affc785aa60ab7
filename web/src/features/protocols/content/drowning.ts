import type { ProtocolInput } from '@rescuelog/sync-protocol/reference/first-aid';

export const protocol = {
  category: 'drowning',
  title: 'Drowning',
  summary: 'Rescue safely, then start with five rescue breaths: drowning is a lack of oxygen.',
  keywords: [
    'drowning',
    'near drowning',
    'water',
    'swimming pool',
    'river',
    'sea',
    'dam',
    'submersion',
    'not breathing',
    'water rescue',
  ],
  callForHelp: [
    'Call emergency services for every drowning, even if the person seems to recover: breathing problems can develop hours later.',
  ],
  warnings: [
    'Do not enter the water unless trained: reach, throw, row, and only then go.',
    'Do not try to drain water from the lungs or press on the stomach.',
    'Expect vomiting: be ready to turn the person onto their side.',
  ],
  variants: [
    {
      age: 'all',
      label: 'All ages',
      steps: [
        'Get the person out of the water safely, using a pole, rope or flotation device if you can.',
        'Lay them on their back on firm ground and check response and breathing.',
        'Not breathing normally: open the airway and give five rescue breaths.',
        'Then start CPR: thirty compressions to two breaths, or fifteen to two for a child if trained.',
        'Call emergency services, or send someone, after the first minute of CPR if you are alone.',
        'Dry the chest and use an AED as soon as one arrives.',
        'If they are breathing, put them on their side, keep them warm and stay with them.',
      ],
    },
  ],
  guideline: {
    name: 'European Resuscitation Council Guidelines 2021: Cardiac arrest in special circumstances (drowning)',
    publisher: 'European Resuscitation Council',
    year: 2021,
  },
} satisfies ProtocolInput;
