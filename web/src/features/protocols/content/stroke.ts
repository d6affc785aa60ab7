import type { ProtocolInput } from '@rescuelog/sync-protocol/reference/first-aid';

export const protocol = {
  category: 'stroke',
  title: 'Stroke (BE-FAST)',
  summary: 'Sudden weakness or speech problems: check BE-FAST, note the time and call at once.',
  keywords: [
    'befast',
    'fast',
    'face drooping',
    'arm weakness',
    'slurred speech',
    'balance',
    'vision loss',
    'sudden headache',
    'confusion',
    'numbness',
    'paralysis',
  ],
  callForHelp: [
    'Call emergency services immediately if any BE-FAST sign is present, even if it passes.',
    'Tell them the time the signs started or the person was last seen well.',
  ],
  warnings: [
    'Do not give anything to eat or drink: swallowing may be affected.',
    'Do not give aspirin for a suspected stroke.',
    'Do not wait to see whether the signs go away.',
  ],
  variants: [
    {
      age: 'all',
      label: 'All ages',
      steps: [
        'Balance: is there sudden loss of balance or coordination?',
        'Eyes: is there sudden loss of vision in one or both eyes?',
        'Face: ask them to smile. Does one side of the face droop?',
        'Arms: ask them to raise both arms. Does one drift down?',
        'Speech: ask them to repeat a simple sentence. Is it slurred or strange?',
        'Time: call emergency services now and write down when the signs started.',
        'Keep them comfortable, sitting supported or lying on their side if drowsy.',
        'Check breathing and response until help arrives, and start CPR if they stop breathing normally.',
      ],
    },
  ],
  guideline: {
    name: 'European Resuscitation Council Guidelines 2021: First Aid (stroke recognition)',
    publisher: 'European Resuscitation Council',
    year: 2021,
  },
} satisfies ProtocolInput;
