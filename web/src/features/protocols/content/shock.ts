import type { ProtocolInput } from '@rescuelog/sync-protocol/reference/first-aid';

export const protocol = {
  category: 'shock',
  title: 'Shock',
  summary: 'Not enough circulation: treat the cause, lay the person down and keep them warm.',
  keywords: [
    'pale',
    'clammy',
    'cold sweat',
    'fast pulse',
    'weak pulse',
    'dizzy',
    'faint',
    'low blood pressure',
    'blood loss',
    'confused',
  ],
  callForHelp: [
    'Call emergency services for anyone showing signs of shock: pale, cold, clammy skin, a fast weak pulse, fast breathing, confusion.',
  ],
  warnings: [
    'Do not give anything to eat or drink.',
    'Do not leave the person alone.',
    'Do not raise the legs if you suspect a head, neck, spine, hip or leg injury.',
  ],
  variants: [
    {
      age: 'all',
      label: 'All ages',
      steps: [
        'Treat the cause you can see first, such as severe bleeding.',
        'Lay the person flat on their back.',
        'If there is no injury that stops you, raise the legs slightly if that makes them feel better.',
        'Loosen tight clothing at the neck, chest and waist.',
        'Keep them warm with a blanket under and over them.',
        'Reassure them and keep them still.',
        'Check breathing, pulse and response every few minutes and write down the times.',
        'If they become unresponsive and stop breathing normally, start CPR.',
      ],
    },
  ],
  guideline: {
    name: 'European Resuscitation Council Guidelines 2021: First Aid (shock)',
    publisher: 'European Resuscitation Council',
    year: 2021,
  },
} satisfies ProtocolInput;
