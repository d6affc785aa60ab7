import type { ProtocolInput } from '@rescuelog/sync-protocol/reference/first-aid';

export const protocol = {
  category: 'asthma-and-breathing-difficulty',
  title: 'Asthma and breathing difficulty',
  summary: 'Sit the person upright and help them use their reliever inhaler.',
  keywords: [
    'asthma',
    'asthma attack',
    'wheeze',
    'wheezing',
    'short of breath',
    'breathless',
    'cannot breathe',
    'inhaler',
    'pump',
    'tight chest',
    'cough',
  ],
  callForHelp: [
    'Call emergency services if the inhaler does not help, breathing gets worse, they cannot speak in full sentences, or their lips turn blue.',
    'Call if they are exhausted, drowsy, or this is the worst attack they have had.',
  ],
  warnings: [
    'Do not lay the person down.',
    'Do not leave them alone.',
    'Breathing difficulty with swelling or a rash after a trigger may be anaphylaxis: give adrenaline.',
  ],
  variants: [
    {
      age: 'all',
      label: 'All ages',
      steps: [
        'Sit them upright, leaning slightly forward, and keep them calm.',
        'Help them take their reliever inhaler, usually blue, with a spacer if they have one.',
        'Give one puff at a time, breathing in and out four times with the spacer, up to ten puffs.',
        'Loosen tight clothing and encourage slow, steady breaths.',
        'If there is no improvement, call emergency services and repeat the puffs every ten to fifteen minutes while waiting.',
        'If they become unresponsive and stop breathing normally, start CPR.',
      ],
    },
  ],
  guideline: {
    name: 'European Resuscitation Council Guidelines 2021: First Aid (asthma with difficulty breathing)',
    publisher: 'European Resuscitation Council',
    year: 2021,
  },
} satisfies ProtocolInput;
