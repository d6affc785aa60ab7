import type { ProtocolInput } from '@rescuelog/sync-protocol/reference/first-aid';

export const protocol = {
  category: 'head-and-spinal-injury',
  title: 'Head and spinal injury',
  summary: 'Keep the head and neck still, watch the level of response, and get help.',
  keywords: [
    'head injury',
    'concussion',
    'neck injury',
    'back injury',
    'spine',
    'fall from height',
    'car crash',
    'diving',
    'knocked out',
    'numbness',
    'tingling',
  ],
  callForHelp: [
    'Call emergency services for any loss of consciousness, drowsiness, confusion, vomiting, seizure, or fluid from the nose or ears.',
    'Call for neck or back pain, numbness, tingling or weakness after a fall, crash or dive.',
  ],
  warnings: [
    'Do not move the person unless they are in danger or you must open the airway.',
    'Do not remove a motorcycle helmet unless the airway is at risk.',
    'Do not let a person with a suspected concussion return to sport or drive that day.',
  ],
  variants: [
    {
      age: 'all',
      label: 'All ages',
      steps: [
        'Tell the person not to move, and keep the head, neck and body in line.',
        'Kneel behind the head and hold it still with both hands on either side.',
        'Check response and breathing. If breathing is not normal, open the airway with a jaw thrust and start CPR if needed.',
        'If they are unresponsive but breathing and you must leave them or they may vomit, roll them onto their side keeping the head and spine in line.',
        'Control bleeding from a scalp wound with gentle pressure around, not on, a suspected skull fracture.',
        'Check and write down their level of response every few minutes.',
        'Keep them warm and reassure them until help arrives.',
      ],
    },
  ],
  guideline: {
    name: 'European Resuscitation Council Guidelines 2021: First Aid (spinal motion restriction, concussion)',
    publisher: 'European Resuscitation Council',
    year: 2021,
  },
} satisfies ProtocolInput;
