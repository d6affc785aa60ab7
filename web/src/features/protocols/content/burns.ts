import type { ProtocolInput } from '@rescuelog/sync-protocol/reference/first-aid';

export const protocol = {
  category: 'burns',
  title: 'Burns',
  summary: 'Cool the burn with running water for twenty minutes, then cover it loosely.',
  keywords: [
    'burn',
    'scald',
    'fire',
    'hot water',
    'blister',
    'chemical burn',
    'electrical burn',
    'sunburn',
    'flame',
    'smoke',
  ],
  callForHelp: [
    'Call emergency services for burns larger than the person’s palm, deep burns, and burns to the face, hands, feet, genitals or across a joint.',
    'Call for electrical and chemical burns, smoke inhalation, and any burn in a child or an older person.',
  ],
  warnings: [
    'Do not use ice, butter, toothpaste or creams.',
    'Do not burst blisters or pull off clothing stuck to the burn.',
    'Do not touch a person in contact with electricity until the power is off.',
    'Keep the rest of the body warm while cooling: watch for hypothermia, especially in children.',
  ],
  variants: [
    {
      age: 'all',
      label: 'All ages',
      steps: [
        'Make the scene safe: stop the burning, put out flames, or switch off the electricity.',
        'Cool the burn under cool running water for twenty minutes as soon as possible.',
        'Remove jewellery and clothing near the burn unless it is stuck to the skin.',
        'For a chemical burn, brush off dry powder, then rinse with plenty of running water.',
        'Cover the burn loosely with cling film laid along it, or a clean non-fluffy dressing.',
        'Keep the person warm and check breathing, especially after smoke or a burn to the face.',
        'Treat for shock if the burn is large.',
      ],
    },
  ],
  guideline: {
    name: 'European Resuscitation Council Guidelines 2021: First Aid (thermal burns)',
    publisher: 'European Resuscitation Council',
    year: 2021,
  },
} satisfies ProtocolInput;
