// First aid protocols (issue 42): the shape of the content the app carries for each category
// of docs/domain.md "First aid protocols", and the speech defaults of spec §9. The content
// itself is static data in the web app (one file per protocol, web/src/features/protocols/
// content/), precached with the app, so it reads offline; this schema is what a test holds
// every file to, so a protocol cannot ship without steps, warnings, when to call for help or
// the guideline it follows.
import { z } from 'zod';

/** The categories of domain.md, in its order; a protocol's `category` is its URL segment. */
export const PROTOCOL_CATEGORIES = [
  'cpr',
  'choking',
  'severe-bleeding',
  'shock',
  'burns',
  'fractures-and-sprains',
  'head-and-spinal-injury',
  'stroke',
  'chest-pain',
  'seizures',
  'diabetic-emergency',
  'anaphylaxis',
  'asthma-and-breathing-difficulty',
  'poisoning',
  'heat-illness',
  'hypothermia',
  'drowning',
  'snake-bite',
  'eye-injury',
  'emergency-childbirth',
] as const;
export type ProtocolCategory = (typeof PROTOCOL_CATEGORIES)[number];

/** The quick grid of /protocols: the most urgent, in this order (issue 42). */
export const URGENT_PROTOCOLS = [
  'cpr',
  'choking',
  'severe-bleeding',
  'anaphylaxis',
] as const satisfies readonly ProtocolCategory[];

export const PROTOCOL_AGES = ['all', 'adult', 'child', 'infant'] as const;
export type ProtocolAge = (typeof PROTOCOL_AGES)[number];

const sentence = z
  .string()
  .trim()
  .min(3)
  .max(400)
  .refine((s) => /[.!?)]$/.test(s), 'ends as a sentence (read aloud as one)');

/** One age group's steps; "all" when the steps do not differ by age. */
export const protocolVariantSchema = z.strictObject({
  age: z.enum(PROTOCOL_AGES),
  /** Who this variant is for, as the screen's tab reads it ("Child (1 year to puberty)"). */
  label: z.string().trim().min(3).max(60),
  steps: z.array(sentence).min(2).max(20),
  /** Warnings that apply only to this age group. */
  warnings: z.array(sentence).max(8).default([]),
});

export const protocolSchema = z
  .strictObject({
    category: z.enum(PROTOCOL_CATEGORIES),
    title: z.string().trim().min(3).max(60),
    /** One line under the title and on the protocol's card. */
    summary: sentence,
    /** Words and symptoms a search finds it by, besides its title and steps ("bee sting"). */
    keywords: z.array(z.string().trim().toLowerCase().min(2).max(40)).min(3).max(30),
    /** When to call for help (emergency services, advanced life support). */
    callForHelp: z.array(sentence).min(1).max(8),
    /** Things not to do, and dangers to watch for, for every age group. */
    warnings: z.array(sentence).min(1).max(10),
    variants: z.array(protocolVariantSchema).min(1).max(3),
    /** The published guidance these steps follow. */
    guideline: z.strictObject({
      name: z.string().trim().min(3).max(160),
      publisher: z.string().trim().min(2).max(120),
      year: z.number().int().min(2010).max(2030),
    }),
  })
  .superRefine((p, ctx) => {
    const ages = p.variants.map((v) => v.age);
    if (new Set(ages).size !== ages.length) {
      ctx.addIssue({ code: 'custom', path: ['variants'], message: 'one variant per age group' });
    }
    if (ages.includes('all') && ages.length > 1) {
      ctx.addIssue({
        code: 'custom',
        path: ['variants'],
        message: '"all" is the only variant when the steps do not differ by age',
      });
    }
  });

export type ProtocolInput = z.input<typeof protocolSchema>;
export type Protocol = z.output<typeof protocolSchema>;
export type ProtocolVariant = Protocol['variants'][number];

export function isProtocolCategory(value: string): value is ProtocolCategory {
  return (PROTOCOL_CATEGORIES as readonly string[]).includes(value);
}

/** Spec §9: the voice a protocol is read in until the user changes it on the screen. */
export const SPEECH_DEFAULTS = { lang: 'en-US', rate: 0.9, pitch: 1, volume: 0.8 } as const;

/** What the screen lets the user set, within what the Web Speech API accepts. */
export const speechSettingsSchema = z.strictObject({
  lang: z.string().regex(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/),
  rate: z.number().min(0.5).max(2),
  pitch: z.number().min(0).max(2),
  volume: z.number().min(0).max(1),
});
export type SpeechSettings = z.infer<typeof speechSettingsSchema>;
