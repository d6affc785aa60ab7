import type { ProtocolInput } from '@rescuelog/sync-protocol/reference/first-aid';

export const protocol = {
  category: 'heat-illness',
  title: 'Heat illness',
  summary: 'Hot, confused or collapsed in the heat: cool the person down fast.',
  keywords: [
    'heat stroke',
    'heatstroke',
    'heat exhaustion',
    'overheating',
    'hot skin',
    'dehydration',
    'cramps',
    'sun',
    'hyperthermia',
    'exertion',
  ],
  callForHelp: [
    'Call emergency services for heat stroke: hot skin with confusion, collapse, seizure, or a temperature above 40 degrees.',
    'Call if heat exhaustion does not improve within thirty minutes of cooling and fluids.',
  ],
  warnings: [
    'Do not give fluids by mouth to someone who is confused or drowsy.',
    'Do not give paracetamol or aspirin to bring the temperature down.',
    'Do not delay cooling of heat stroke while waiting for transport.',
  ],
  variants: [
    {
      age: 'all',
      label: 'All ages',
      steps: [
        'Move the person out of the heat into shade or a cool place.',
        'Remove excess clothing and lay them down.',
        'For heat stroke, cool them fast: immerse the body up to the neck in cold water if you can.',
        'Otherwise soak them with cool water and fan them, and put cold packs in the armpits and groin.',
        'If they are alert and can swallow, give sips of water or an oral rehydration drink.',
        'Keep cooling until they feel better or help arrives, and check their response and breathing.',
        'If they become unresponsive and stop breathing normally, start CPR.',
      ],
    },
  ],
  guideline: {
    name: 'European Resuscitation Council Guidelines 2021: First Aid (heat stroke, exertional dehydration)',
    publisher: 'European Resuscitation Council',
    year: 2021,
  },
} satisfies ProtocolInput;
