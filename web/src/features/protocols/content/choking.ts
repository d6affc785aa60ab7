import type { ProtocolInput } from '@rescuelog/sync-protocol/reference/first-aid';

export const protocol = {
  category: 'choking',
  title: 'Choking',
  summary: 'Something blocks the airway: encourage coughing, then back blows and thrusts.',
  keywords: [
    'choke',
    'airway obstruction',
    'foreign body',
    'cannot breathe',
    'cannot speak',
    'food stuck',
    'clutching throat',
    'back blows',
    'abdominal thrusts',
    'heimlich',
  ],
  callForHelp: [
    'Call emergency services if back blows and thrusts do not clear the obstruction.',
    'Call as soon as the person becomes unresponsive, and start CPR.',
    'Everyone who had abdominal thrusts must be seen by a doctor afterwards.',
  ],
  warnings: [
    'Do not slap the back of someone who is coughing effectively: encourage them to keep coughing.',
    'Do not sweep blindly in the mouth with a finger; remove only an object you can see.',
    'If the person becomes unresponsive, lower them to the ground and start CPR.',
  ],
  variants: [
    {
      age: 'adult',
      label: 'Adult (puberty and older)',
      steps: [
        'Ask: are you choking? If they can cough, tell them to keep coughing.',
        'Cough not working: stand to the side and slightly behind, and lean them well forward.',
        'Give up to five sharp back blows between the shoulder blades with the heel of your hand.',
        'Check after each blow whether the obstruction has cleared.',
        'Still blocked: stand behind them, put a fist between the navel and the ribs, grasp it with your other hand, and pull sharply inwards and upwards.',
        'Give up to five abdominal thrusts, checking after each one.',
        'Keep alternating five back blows and five abdominal thrusts until it clears or they become unresponsive.',
        'Unresponsive: lower them to the ground, call emergency services and start CPR.',
      ],
      warnings: [
        'For a pregnant or very obese person, give chest thrusts on the lower breastbone instead of abdominal thrusts.',
      ],
    },
    {
      age: 'child',
      label: 'Child (1 year to puberty)',
      steps: [
        'If the child can cough, encourage them to keep coughing and stay with them.',
        'Cough not working: lean the child forward and give up to five back blows between the shoulder blades.',
        'Still blocked: stand or kneel behind the child and give up to five abdominal thrusts, inwards and upwards.',
        'Keep alternating five back blows and five abdominal thrusts, checking the mouth for a visible object.',
        'Unresponsive: call emergency services, give five rescue breaths and start CPR.',
      ],
    },
    {
      age: 'infant',
      label: 'Infant (under 1 year)',
      steps: [
        'Lay the infant face down along your forearm, head lower than the body, supporting the jaw with your hand.',
        'Give up to five firm back blows between the shoulder blades with the heel of your hand.',
        'Still blocked: turn the infant face up along your other arm, head low.',
        'Give up to five chest thrusts with two fingers on the lower half of the breastbone, sharper and slower than CPR compressions.',
        'Keep alternating five back blows and five chest thrusts, removing any object you can see.',
        'Unresponsive: call emergency services, give five rescue breaths and start infant CPR.',
      ],
      warnings: ['Never give abdominal thrusts to an infant.'],
    },
  ],
  guideline: {
    name: 'European Resuscitation Council Guidelines 2021: Basic Life Support and Paediatric Life Support (foreign body airway obstruction)',
    publisher: 'European Resuscitation Council',
    year: 2021,
  },
} satisfies ProtocolInput;
