import { describe, expect, it } from 'vitest';
import {
  parseInline,
  parseSopBody,
  SOP_MARKUP_MESSAGES,
  sopBodySchema,
} from '../../src/reference/sop-markup';

const refused = (body: string) => sopBodySchema.safeParse(body).error?.issues.map((i) => i.message);

describe('SOP formatting refuses scripts and raw HTML', () => {
  it.each([
    ['<script>alert(1)</script>', SOP_MARKUP_MESSAGES.rawHtml],
    ['Hello <b>bold</b>', SOP_MARKUP_MESSAGES.rawHtml],
    ['<img src=x onerror=alert(1)>', SOP_MARKUP_MESSAGES.rawHtml],
    ['< script >alert(1)', SOP_MARKUP_MESSAGES.rawHtml],
    ['</p>', SOP_MARKUP_MESSAGES.rawHtml],
    ['<!-- hidden -->', SOP_MARKUP_MESSAGES.rawHtml],
    ['<?xml version="1.0"?>', SOP_MARKUP_MESSAGES.rawHtml],
    ['<svg/onload=alert(1)>', SOP_MARKUP_MESSAGES.rawHtml],
    ['[click](javascript:alert(1))', SOP_MARKUP_MESSAGES.badLink],
    ['[click](JavaScript:alert(1))', SOP_MARKUP_MESSAGES.badLink],
    ['[x](data:text/html;base64,PHNjcmlwdD4=)', SOP_MARKUP_MESSAGES.badLink],
    ['[x](vbscript:msgbox)', SOP_MARKUP_MESSAGES.badLink],
    ['[x](//evil.example/)', SOP_MARKUP_MESSAGES.badLink],
    ['[x]()', SOP_MARKUP_MESSAGES.badLink],
  ])('%s', (body, message) => {
    expect(refused(body)).toContain(message);
  });

  it.each([
    'Heart rate < 60 or > 100 is abnormal.',
    'Use 1<2 and a->b.',
    '[Guide](https://example.org/a?b=1)',
    '[Call](tel:+27105550100) or [mail](mailto:ops@example.org)',
    '[Protocols](/protocols/cpr)',
  ])('accepts %s', (body) => {
    expect(refused(body)).toBeUndefined();
  });

  it('needs some text and at most 20,000 characters', () => {
    expect(refused('   ')).toEqual(['The SOP needs some text']);
    expect(refused('a'.repeat(20_001))).toEqual(['The SOP may have at most 20,000 characters']);
  });
});

describe('parseSopBody', () => {
  it('reads headings, lists, paragraphs, bold and links', () => {
    const body = [
      '# Vehicle check',
      'Before **every** shift.',
      'Continued line.',
      '',
      '- Oil',
      '* Tyres',
      '1. Start engine',
      '2) Lights',
      '### See [the guide](https://example.org)',
    ].join('\n');
    expect(parseSopBody(body)).toEqual([
      { type: 'heading', level: 1, content: [{ type: 'text', text: 'Vehicle check' }] },
      {
        type: 'paragraph',
        content: [
          { type: 'text', text: 'Before ' },
          { type: 'bold', text: 'every' },
          { type: 'text', text: ' shift. Continued line.' },
        ],
      },
      {
        type: 'list',
        ordered: false,
        items: [[{ type: 'text', text: 'Oil' }], [{ type: 'text', text: 'Tyres' }]],
      },
      {
        type: 'list',
        ordered: true,
        items: [[{ type: 'text', text: 'Start engine' }], [{ type: 'text', text: 'Lights' }]],
      },
      {
        type: 'heading',
        level: 3,
        content: [
          { type: 'text', text: 'See ' },
          { type: 'link', text: 'the guide', href: 'https://example.org' },
        ],
      },
    ]);
  });

  it('keeps an unsafe link as plain text (a body stored before a rule changed)', () => {
    expect(parseInline('[x](javascript:alert(1))')).toEqual([
      { type: 'text', text: 'x' },
      { type: 'text', text: ')' },
    ]);
  });
});
