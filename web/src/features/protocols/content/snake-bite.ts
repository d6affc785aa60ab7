import type { ProtocolInput } from '@rescuelog/sync-protocol/reference/first-aid';

export const protocol = {
  category: 'snake-bite',
  title: 'Snake bite',
  summary: 'Keep the person and the bitten limb still, and get them to hospital fast.',
  keywords: [
    'snake',
    'snakebite',
    'bite',
    'venom',
    'puff adder',
    'cobra',
    'mamba',
    'fang marks',
    'swelling',
    'drooping eyelids',
  ],
  callForHelp: [
    'Call emergency services for every snake bite: anti-venom is given only in hospital.',
    'Tell them at once about drooping eyelids, difficulty swallowing or breathing, or bleeding from the gums.',
  ],
  warnings: [
    'Do not cut, suck, squeeze or burn the bite.',
    'Do not use a tourniquet or ice.',
    'Do not try to catch or kill the snake; take a photo from a safe distance only if easy.',
    'Spitting cobra venom in the eyes: rinse with plenty of water or milk for at least ten minutes.',
  ],
  variants: [
    {
      age: 'all',
      label: 'All ages',
      steps: [
        'Move the person away from the snake.',
        'Keep them calm and still, lying down; movement spreads the venom.',
        'Remove rings, watches and tight clothing from the bitten limb before it swells.',
        'Immobilise the bitten limb with a splint, keeping it at the level of the heart.',
        'Mark the edge of any swelling with a pen and write down the time.',
        'Carry or transport them to hospital; do not let them walk.',
        'Watch breathing; if it stops, start CPR and keep going until help takes over.',
      ],
    },
  ],
  guideline: {
    name: 'WHO Guidelines for the Management of Snakebites, 2nd edition',
    publisher: 'World Health Organization',
    year: 2016,
  },
} satisfies ProtocolInput;
