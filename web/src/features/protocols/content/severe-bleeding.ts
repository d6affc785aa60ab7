import type { ProtocolInput } from '@rescuelog/sync-protocol/reference/first-aid';

export const protocol = {
  category: 'severe-bleeding',
  title: 'Severe bleeding',
  summary: 'Stop life-threatening bleeding with firm direct pressure, then a tourniquet on a limb.',
  keywords: [
    'bleeding',
    'blood',
    'haemorrhage',
    'hemorrhage',
    'wound',
    'cut',
    'laceration',
    'amputation',
    'stab',
    'gunshot',
    'tourniquet',
    'spurting',
  ],
  callForHelp: [
    'Call emergency services at once for bleeding that spurts, pools, or does not stop with pressure.',
    'Call for any amputation, deep wound to the neck, chest or abdomen, or signs of shock.',
  ],
  warnings: [
    'Protect yourself: wear gloves and eye protection where you can.',
    'Do not remove an embedded object; pad around it and press beside it.',
    'Do not lift a soaked dressing to look: add more on top and keep pressing.',
    'Do not loosen a tourniquet once applied; note the time it went on.',
  ],
  variants: [
    {
      age: 'all',
      label: 'All ages',
      steps: [
        'Put on gloves and expose the wound.',
        'Press firmly and directly on the wound with a dressing or clean cloth, or your gloved hand.',
        'For a deep wound, pack it tightly with gauze and keep pressing for at least ten minutes.',
        'Bleeding from an arm or leg that does not stop with pressure: apply a tourniquet five to seven centimetres above the wound, not over a joint.',
        'Tighten the tourniquet until the bleeding stops and write down the time it was applied.',
        'Hold the dressing in place with a firm bandage, checking the fingers or toes stay warm if no tourniquet is used.',
        'Lay the person down, keep them warm and reassure them.',
        'Watch for signs of shock and keep checking breathing until help arrives.',
      ],
    },
  ],
  guideline: {
    name: 'European Resuscitation Council Guidelines 2021: First Aid (life-threatening bleeding)',
    publisher: 'European Resuscitation Council',
    year: 2021,
  },
} satisfies ProtocolInput;
