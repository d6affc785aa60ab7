import type { ProtocolInput } from '@rescuelog/sync-protocol/reference/first-aid';

export const protocol = {
  category: 'anaphylaxis',
  title: 'Anaphylaxis',
  summary: 'Severe allergic reaction: give adrenaline into the outer thigh at once, then call.',
  keywords: [
    'allergy',
    'allergic reaction',
    'bee sting',
    'wasp sting',
    'insect sting',
    'nut allergy',
    'food allergy',
    'swollen face',
    'swollen tongue',
    'swollen lips',
    'hives',
    'rash',
    'wheeze',
    'epipen',
    'adrenaline',
    'epinephrine',
  ],
  callForHelp: [
    'Call emergency services immediately for any suspected anaphylaxis, even if adrenaline has helped.',
  ],
  warnings: [
    'Do not delay adrenaline: it is the treatment, and antihistamines are not a substitute.',
    'Do not let the person stand or walk, even if they feel better: it can cause collapse.',
    'Do not squeeze a bee sting sac: scrape the sting out sideways.',
  ],
  variants: [
    {
      age: 'all',
      label: 'All ages',
      steps: [
        'Look for swelling of the lips, tongue or throat, difficult breathing, wheeze, hives, or faintness after a trigger such as a sting or food.',
        'Help them use their adrenaline auto-injector into the outer thigh, through clothing if needed, and hold it in place as its instructions say.',
        'Call emergency services and say it is anaphylaxis.',
        'Lay them flat with legs raised; let them sit up if breathing is difficult; lay a pregnant woman on her left side.',
        'If a sting is still in the skin, scrape it out sideways with a card.',
        'If there is no improvement after five minutes, give a second adrenaline injection if one is available.',
        'Stay with them and check breathing; if they stop breathing normally, start CPR.',
      ],
    },
  ],
  guideline: {
    name: 'European Resuscitation Council Guidelines 2021: First Aid (anaphylaxis)',
    publisher: 'European Resuscitation Council',
    year: 2021,
  },
} satisfies ProtocolInput;
