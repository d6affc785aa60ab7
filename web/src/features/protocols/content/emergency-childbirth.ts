import type { ProtocolInput } from '@rescuelog/sync-protocol/reference/first-aid';

export const protocol = {
  category: 'emergency-childbirth',
  title: 'Emergency childbirth',
  summary: 'Birth is coming: support the baby, dry and warm it, and keep mother and baby together.',
  keywords: [
    'birth',
    'childbirth',
    'labour',
    'labor',
    'delivery',
    'pregnant',
    'contractions',
    'waters broken',
    'newborn',
    'baby',
    'umbilical cord',
  ],
  callForHelp: [
    'Call emergency services as soon as labour starts outside a facility.',
    'Tell them at once about heavy bleeding, the cord coming first, a breech or limb presentation, or a baby who does not breathe.',
  ],
  warnings: [
    'Do not pull on the baby or the cord.',
    'Do not try to delay or stop the birth.',
    'Do not cut the cord: clamp or tie it only if advised, and leave it for the crew.',
  ],
  variants: [
    {
      age: 'all',
      label: 'Mother and newborn',
      steps: [
        'Call emergency services and prepare a clean, warm, private place with towels.',
        'Wash your hands, put on gloves, and let the mother find a comfortable position.',
        'As the head appears, support it gently with your hand; do not pull.',
        'Check whether the cord is around the neck; if loose, slip it over the head.',
        'Support the baby as the shoulders and body are born with the next contractions.',
        'Dry the baby straight away with a towel, and put it skin to skin on the mother’s chest.',
        'Cover both with a dry towel, including the baby’s head, to keep the baby warm.',
        'If the baby does not breathe or cry after drying, open the airway and give five rescue breaths, then newborn CPR.',
        'Let the placenta come by itself, keep it for the crew, and watch the mother for heavy bleeding.',
      ],
    },
  ],
  guideline: {
    name: 'European Resuscitation Council Guidelines 2021: Newborn resuscitation and support of transition of infants at birth',
    publisher: 'European Resuscitation Council',
    year: 2021,
  },
} satisfies ProtocolInput;
