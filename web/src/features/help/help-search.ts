import type { HelpTopic } from './help-topics';

const norm = (s: string) =>
  s
    .toLowerCase()
    .replace(/[’']/g, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();

/** Topics where every word of the query starts a word of the title, keywords or text. */
export function searchHelp(topics: readonly HelpTopic[], query: string): HelpTopic[] {
  const words = norm(query).split(' ').filter(Boolean);
  if (words.length === 0) return [...topics];
  return topics.filter((t) => {
    const text = ` ${norm([t.title, ...t.keywords, t.intro, ...t.steps].join(' '))}`;
    return words.every((w) => text.includes(` ${w}`));
  });
}
