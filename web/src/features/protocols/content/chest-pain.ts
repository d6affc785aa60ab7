import type { ProtocolInput } from '@rescuelog/sync-protocol/reference/first-aid';

export const protocol = {
  category: 'chest-pain',
  title: 'Chest pain / heart attack',
  summary: 'Crushing chest pain: call, rest the person, and give aspirin if it is safe.',
  keywords: [
    'heart attack',
    'angina',
    'chest pain',
    'chest tightness',
    'pain in arm',
    'jaw pain',
    'shortness of breath',
    'sweating',
    'nausea',
    'cardiac',
    'aspirin',
  ],
  callForHelp: [
    'Call emergency services at once for chest pain lasting more than a few minutes, or pain spreading to the arm, neck, jaw or back.',
    'Send for an AED in case the heart stops.',
  ],
  warnings: [
    'Do not give aspirin if they are allergic to it, already had it, are under 16, or a doctor told them not to take it.',
    'Do not let the person walk around or exert themselves.',
    'If they become unresponsive and stop breathing normally, start CPR and use the AED.',
  ],
  variants: [
    {
      age: 'all',
      label: 'All ages',
      steps: [
        'Sit the person down in a comfortable half-sitting position, supported, with knees bent.',
        'Call emergency services and send for an AED.',
        'Give one adult aspirin, 150 to 300 milligrams, to chew slowly, if it is safe for them.',
        'If they have their own angina spray or tablets, help them take it as prescribed.',
        'Loosen tight clothing and reassure them.',
        'Check breathing, pulse and response until help arrives.',
      ],
    },
  ],
  guideline: {
    name: 'European Resuscitation Council Guidelines 2021: First Aid (chest pain)',
    publisher: 'European Resuscitation Council',
    year: 2021,
  },
} satisfies ProtocolInput;
