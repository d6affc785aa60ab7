// The simple formatting of an internal SOP's body (issue 42): headings, lists, bold and
// links, and nothing else. A body is parsed into blocks the web app renders as React elements
// (never as HTML), so no markup can run; raw HTML in a body is refused with a clear message
// rather than shown or stripped, and a link must be web, mail, phone or an in-app path
// (decision 081).
//
//   # Heading, ## Subheading, ### Minor heading
//   - item (or * item), 1. numbered item
//   **bold**, [text](https://example.org)
//   A blank line starts a new paragraph.
import { z } from 'zod';

export type SopInline =
  | { type: 'text'; text: string }
  | { type: 'bold'; text: string }
  | { type: 'link'; text: string; href: string };

export type SopBlock =
  | { type: 'heading'; level: 1 | 2 | 3; content: SopInline[] }
  | { type: 'paragraph'; content: SopInline[] }
  | { type: 'list'; ordered: boolean; items: SopInline[][] };

export const SOP_MARKUP_MESSAGES = {
  rawHtml:
    'Raw HTML is not allowed. Use # for headings, - for lists, **bold** and [text](https://…) for links.',
  badLink: 'A link must start with https://, http://, mailto:, tel: or /.',
} as const;

// A tag, a closing tag, a comment or a processing instruction: anything a browser would read
// as markup.
const RAW_HTML = /<\s*(?:[/?]?\s*[a-z]|!)/i;
const LINK = /\[([^\]\n]+)\]\(([^)\s]*)\)/g;
const BOLD = /\*\*([^*\n]+)\*\*/g;

export function isSafeHref(href: string): boolean {
  if (/^(https?:\/\/|mailto:|tel:)[^\s]+$/i.test(href)) return true;
  return /^\/(?!\/)[^\s\\]*$/.test(href);
}

/** What is wrong with a body's formatting, as messages for the form; none: it is safe. */
export function sopBodyProblems(body: string): string[] {
  const problems: string[] = [];
  if (RAW_HTML.test(body)) problems.push(SOP_MARKUP_MESSAGES.rawHtml);
  for (const m of body.matchAll(LINK)) {
    if (!isSafeHref(m[2] ?? '')) {
      problems.push(SOP_MARKUP_MESSAGES.badLink);
      break;
    }
  }
  return problems;
}

function parseBold(text: string): SopInline[] {
  const out: SopInline[] = [];
  let last = 0;
  for (const m of text.matchAll(BOLD)) {
    if (m.index > last) out.push({ type: 'text', text: text.slice(last, m.index) });
    out.push({ type: 'bold', text: m[1] ?? '' });
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push({ type: 'text', text: text.slice(last) });
  return out;
}

/** A line's bold and links; a link that is not safe stays as its plain text. */
export function parseInline(text: string): SopInline[] {
  const out: SopInline[] = [];
  let last = 0;
  for (const m of text.matchAll(LINK)) {
    if (m.index > last) out.push(...parseBold(text.slice(last, m.index)));
    const label = m[1] ?? '';
    const href = m[2] ?? '';
    out.push(
      isSafeHref(href) ? { type: 'link', text: label, href } : { type: 'text', text: label },
    );
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push(...parseBold(text.slice(last)));
  return out;
}

const HEADING = /^(#{1,3})\s+(.+)$/;
const BULLET = /^[-*]\s+(.+)$/;
const NUMBERED = /^\d{1,3}[.)]\s+(.+)$/;

export function parseSopBody(body: string): SopBlock[] {
  const blocks: SopBlock[] = [];
  let paragraph: string[] = [];
  let list: { ordered: boolean; items: SopInline[][] } | null = null;
  const flush = () => {
    if (paragraph.length > 0)
      blocks.push({ type: 'paragraph', content: parseInline(paragraph.join(' ')) });
    paragraph = [];
    if (list) blocks.push({ type: 'list', ...list });
    list = null;
  };
  for (const raw of body.replace(/\r\n?/g, '\n').split('\n')) {
    const line = raw.trim();
    if (line === '') {
      flush();
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      flush();
      const level = (heading[1]?.length ?? 1) as 1 | 2 | 3;
      blocks.push({ type: 'heading', level, content: parseInline(heading[2] ?? '') });
      continue;
    }
    const bullet = BULLET.exec(line);
    const numbered = bullet ? null : NUMBERED.exec(line);
    const item = bullet ?? numbered;
    if (item) {
      const ordered = numbered !== null;
      if (paragraph.length > 0 || (list && list.ordered !== ordered)) flush();
      list ??= { ordered, items: [] };
      list.items.push(parseInline(item[1] ?? ''));
      continue;
    }
    if (list) flush();
    paragraph.push(line);
  }
  flush();
  return blocks;
}

/** An SOP's body: some text, at most 20,000 characters, in the simple formatting only. */
export const sopBodySchema = z
  .string()
  .trim()
  .min(1, 'The SOP needs some text')
  .max(20_000, 'The SOP may have at most 20,000 characters')
  .superRefine((body, ctx) => {
    for (const message of sopBodyProblems(body)) ctx.addIssue({ code: 'custom', message });
  });
