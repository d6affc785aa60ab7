// Search across the protocols by word or symptom ("bleeding", "bee sting"). Every word of the
// query must start a word somewhere in the protocol (so "sting" finds "stings", "burn" finds
// "burns"); the best matches come first: a phrase that is a keyword or in the title before one
// found only in the steps. Pure, so the screen and its tests share it.
import type { Protocol } from '@rescuelog/sync-protocol/reference/first-aid';

function normalise(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[’']/g, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

function words(text: string): string[] {
  const n = normalise(text);
  return n ? n.split(' ') : [];
}

interface Indexed {
  protocol: Protocol;
  title: string;
  keywords: string[];
  summary: string;
  body: string;
}

function index(protocol: Protocol): Indexed {
  const body = [
    ...protocol.warnings,
    ...protocol.callForHelp,
    ...protocol.variants.flatMap((v) => [v.label, ...v.steps, ...v.warnings]),
  ].join(' ');
  return {
    protocol,
    title: ` ${normalise(protocol.title)} `,
    keywords: protocol.keywords.map((k) => ` ${normalise(k)} `),
    summary: ` ${normalise(protocol.summary)} `,
    body: ` ${normalise(body)} `,
  };
}

const startsWord = (haystack: string, word: string) => haystack.includes(` ${word}`);

function score(p: Indexed, query: string[]): number {
  const all = [p.title, ...p.keywords, p.summary, p.body].join(' ');
  if (!query.every((w) => startsWord(all, w))) return 0;
  const phrase = ` ${query.join(' ')}`;
  let s = 1;
  if (p.title.includes(phrase)) s += 100;
  if (p.keywords.some((k) => k.includes(phrase))) s += 60;
  if (p.summary.includes(phrase)) s += 20;
  for (const w of query) {
    if (startsWord(p.title, w)) s += 10;
    if (p.keywords.some((k) => startsWord(k, w))) s += 6;
    if (startsWord(p.summary, w)) s += 2;
  }
  return s;
}

/** The protocols matching the query, best first; all of them for an empty query. */
export function searchProtocols(protocols: readonly Protocol[], query: string): Protocol[] {
  const q = words(query);
  if (q.length === 0) return [...protocols];
  return protocols
    .map((p, order) => ({ p, order, s: score(index(p), q) }))
    .filter((r) => r.s > 0)
    .sort((a, b) => b.s - a.s || a.order - b.order)
    .map((r) => r.p);
}
