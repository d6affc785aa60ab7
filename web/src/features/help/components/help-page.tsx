// /help: the help guide, task by task, searchable, offline (issue 42).
import { SearchX } from 'lucide-react';
import { useId, useMemo } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { Callout } from '@/components/ui/callout';
import { PageHeader } from '@/components/ui/page-header';
import { searchHelp } from '../help-search';
import { HELP_TOPICS } from '../help-topics';
import styles from './help.module.css';

export function HelpPage() {
  const [params, setParams] = useSearchParams();
  const query = params.get('q') ?? '';
  const topics = useMemo(() => searchHelp(HELP_TOPICS, query), [query]);
  const id = useId();

  return (
    <>
      <PageHeader title="Help & Guide" />
      <main className={`page ${styles.page}`}>
        <div role="search" className={styles.search}>
          <label htmlFor={id} className="field__label">
            Search the help
          </label>
          <input
            id={id}
            type="search"
            className="input"
            value={query}
            autoComplete="off"
            onChange={(e) =>
              setParams(e.target.value ? { q: e.target.value } : {}, { replace: true })
            }
          />
        </div>
        {topics.length === 0 ? (
          <Callout tone="info">
            <SearchX aria-hidden="true" size={24} />
            <span>No help topic matches “{query.trim()}”.</span>
          </Callout>
        ) : (
          <div className={styles.topics}>
            {topics.map((t) => (
              <details key={t.id} className={styles.topic} open={topics.length === 1}>
                <summary className={styles.summary}>{t.title}</summary>
                <div className={styles.content}>
                  <p>{t.intro}</p>
                  <ol>
                    {t.steps.map((s) => (
                      <li key={s}>{s}</li>
                    ))}
                  </ol>
                  {t.link ? (
                    <Link to={t.link.to} className="button button--secondary">
                      {t.link.label}
                    </Link>
                  ) : null}
                </div>
              </details>
            ))}
          </div>
        )}
      </main>
    </>
  );
}
