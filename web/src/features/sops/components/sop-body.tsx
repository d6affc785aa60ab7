// An SOP's body in the simple formatting (sync-protocol reference/sop-markup.ts), rendered as
// React elements from the parsed blocks: no HTML string is ever put into the page.
import { parseSopBody, type SopInline } from '@rescuelog/sync-protocol/reference/sop-markup';
import { Fragment, useMemo } from 'react';
import styles from './sops.module.css';

function Inline({ content }: { content: readonly SopInline[] }) {
  return (
    <>
      {content.map((part, i) => {
        if (part.type === 'bold') return <strong key={i}>{part.text}</strong>;
        if (part.type === 'link') {
          const external = !part.href.startsWith('/');
          return (
            <a
              key={i}
              href={part.href}
              {...(external ? { target: '_blank', rel: 'noopener noreferrer' } : {})}
            >
              {part.text}
            </a>
          );
        }
        return <Fragment key={i}>{part.text}</Fragment>;
      })}
    </>
  );
}

export function SopBody({ body }: { body: string }) {
  const blocks = useMemo(() => parseSopBody(body), [body]);
  return (
    <div className={styles.body}>
      {blocks.map((block, i) => {
        switch (block.type) {
          case 'heading': {
            // The page's h1 is the SOP's title: its headings start at h2.
            const Tag = (['h2', 'h3', 'h4'] as const)[block.level - 1] ?? 'h4';
            return (
              <Tag key={i}>
                <Inline content={block.content} />
              </Tag>
            );
          }
          case 'paragraph':
            return (
              <p key={i}>
                <Inline content={block.content} />
              </p>
            );
          case 'list': {
            const Tag = block.ordered ? 'ol' : 'ul';
            return (
              <Tag key={i}>
                {block.items.map((item, j) => (
                  <li key={j}>
                    <Inline content={item} />
                  </li>
                ))}
              </Tag>
            );
          }
        }
      })}
    </div>
  );
}
