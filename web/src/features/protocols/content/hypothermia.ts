import type { ProtocolInput } from '@rescuelog/sync-protocol/reference/first-aid';

export const protocol = {
  category: 'hypothermia',
  title: 'Hypothermia',
  summary: 'Too cold: get the person out of the cold, handle gently, and warm them slowly.',
  keywords: [
    'cold',
    'freezing',
    'shivering',
    'exposure',
    'wet',
    'snow',
    'cold water',
    'blue lips',
    'numb',
    'frostbite',
  ],
  callForHelp: [
    'Call emergency services if the person is confused, drowsy, not shivering despite being cold, or unresponsive.',
    'Call for any older person or infant who is cold to the touch.',
  ],
  warnings: [
    'Handle the person gently and keep them lying flat: rough movement can stop the heart.',
    'Do not rub the skin or put the person in a hot bath.',
    'Do not give alcohol.',
    'Check breathing for a full minute before deciding to start CPR; a cold person breathes slowly.',
  ],
  variants: [
    {
      age: 'all',
      label: 'All ages',
      steps: [
        'Move the person out of the wind, rain or water to a sheltered place.',
        'Keep them lying down and handle them gently.',
        'Replace wet clothing with dry clothing, or cover the wet clothes with a waterproof layer if you cannot.',
        'Wrap them in blankets or a sleeping bag, covering the head, with insulation underneath.',
        'If they are alert and can swallow, give warm sweet drinks.',
        'Warm them slowly with body heat or warm packs wrapped in cloth on the chest and armpits.',
        'Check breathing and response, and start CPR if they stop breathing.',
      ],
    },
  ],
  guideline: {
    name: 'IFRC International First Aid, Resuscitation, and Education Guidelines 2020 (hypothermia)',
    publisher: 'International Federation of Red Cross and Red Crescent Societies',
    year: 2020,
  },
} satisfies ProtocolInput;
