import type { ProtocolInput } from '@rescuelog/sync-protocol/reference/first-aid';

export const protocol = {
  category: 'diabetic-emergency',
  title: 'Diabetic emergency (low blood sugar)',
  summary: 'A diabetic who is shaky, sweaty or confused: give sugar by mouth if they can swallow.',
  keywords: [
    'diabetes',
    'diabetic',
    'hypoglycaemia',
    'hypoglycemia',
    'low blood sugar',
    'hypo',
    'insulin',
    'shaky',
    'sweating',
    'confused',
    'glucose',
    'sugar',
  ],
  callForHelp: [
    'Call emergency services if they do not improve within fifteen minutes, cannot swallow safely, or become drowsy or unresponsive.',
  ],
  warnings: [
    'Do not give anything by mouth to someone who is drowsy, unresponsive or cannot swallow.',
    'Do not give insulin.',
  ],
  variants: [
    {
      age: 'all',
      label: 'All ages',
      steps: [
        'Ask whether they have diabetes, and check for a medical bracelet or glucose meter.',
        'Sit them down.',
        'If they can swallow, give glucose tablets or gel, about fifteen to twenty grams, or a sugary drink or sweets.',
        'Check their blood sugar with their meter if they have one and know how.',
        'If they improve after ten to fifteen minutes, give a snack such as a sandwich or biscuits.',
        'If they do not improve, give more sugar and call emergency services.',
        'If they become unresponsive, check breathing, put them on their side, and call.',
      ],
    },
  ],
  guideline: {
    name: 'European Resuscitation Council Guidelines 2021: First Aid (hypoglycaemia)',
    publisher: 'European Resuscitation Council',
    year: 2021,
  },
} satisfies ProtocolInput;
