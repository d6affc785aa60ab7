import type { ProtocolInput } from '@rescuelog/sync-protocol/reference/first-aid';

export const protocol = {
  category: 'fractures-and-sprains',
  title: 'Fractures and sprains',
  summary: 'Support the injured limb in the position found; do not try to straighten it.',
  keywords: [
    'broken bone',
    'fracture',
    'sprain',
    'strain',
    'dislocation',
    'swelling',
    'deformity',
    'ankle',
    'wrist',
    'splint',
    'sling',
  ],
  callForHelp: [
    'Call emergency services for an open fracture, a deformed limb, a limb that is cold, pale or numb below the injury, or a suspected thigh or pelvis fracture.',
  ],
  warnings: [
    'Do not try to straighten a deformed limb or push a bone back in.',
    'Do not move the person if you suspect a spinal injury.',
    'Do not put ice directly on the skin.',
    'Do not give food or drink in case they need surgery.',
  ],
  variants: [
    {
      age: 'all',
      label: 'All ages',
      steps: [
        'Keep the person still and support the injured part in the position you found it.',
        'Cover an open wound with a clean dressing and control bleeding without pressing on the bone.',
        'Immobilise the joint above and below the injury with padding, a splint or a sling.',
        'Check colour, warmth and feeling below the injury before and after splinting.',
        'For a sprain, rest the joint and apply a cold pack wrapped in cloth for up to twenty minutes.',
        'Raise an injured arm or leg once it is supported, if that does not cause pain.',
        'Watch for signs of shock.',
      ],
    },
  ],
  guideline: {
    name: 'European Resuscitation Council Guidelines 2021: First Aid (fractures, joint injuries)',
    publisher: 'European Resuscitation Council',
    year: 2021,
  },
} satisfies ProtocolInput;
