import type { ProtocolInput } from '@rescuelog/sync-protocol/reference/first-aid';

export const protocol = {
  category: 'eye-injury',
  title: 'Eye injury',
  summary: 'Rinse chemicals out with plenty of water; protect an injured eye without pressure.',
  keywords: [
    'eye',
    'chemical in eye',
    'something in eye',
    'foreign body',
    'grit',
    'cut eye',
    'blow to eye',
    'black eye',
    'splash',
    'vision',
  ],
  callForHelp: [
    'Call emergency services for a chemical in the eye, an object stuck in the eye, a penetrating wound, or any loss of vision.',
  ],
  warnings: [
    'Do not rub the eye.',
    'Do not try to remove an object stuck in the eye.',
    'Do not press on an injured eyeball.',
  ],
  variants: [
    {
      age: 'all',
      label: 'All ages',
      steps: [
        'For a chemical splash, rinse the eye at once with plenty of clean water for at least twenty minutes, the injured eye lowest.',
        'Hold the eyelids open gently while rinsing, and remove contact lenses if easy.',
        'For loose grit, ask them to blink, then rinse with water or lift it off with a moist cloth corner.',
        'For an object stuck in the eye, cover the eye with a paper cup or padding that does not touch it.',
        'Cover both eyes if you can, so the injured eye moves less, and reassure the person.',
        'For a blow to the eye, hold a cold pack wrapped in cloth gently against it.',
        'Get them to hospital or an eye clinic.',
      ],
    },
  ],
  guideline: {
    name: 'European Resuscitation Council Guidelines 2021: First Aid (chemical eye injury)',
    publisher: 'European Resuscitation Council',
    year: 2021,
  },
} satisfies ProtocolInput;
