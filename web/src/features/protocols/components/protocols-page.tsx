// /protocols: the quick grid of the most urgent protocols, a search by word or symptom, and
// every protocol. All of it is data in the app, so it works offline once the app is installed.
import { SearchX } from 'lucide-react';
import { useId, useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Callout } from '@/components/ui/callout';
import { PageHeader } from '@/components/ui/page-header';
import { PROTOCOLS, URGENT } from '../protocol-library';
import { searchProtocols } from '../protocol-search';
import { ProtocolList, UrgentGrid } from './protocol-list';
import styles from './protocols.module.css';

export function ProtocolsPage() {
  const [params, setParams] = useSearchParams();
  const query = params.get('q') ?? '';
  const results = useMemo(() => searchProtocols(PROTOCOLS, query), [query]);
  const searchId = useId();
  const searching = query.trim() !== '';

  return (
    <>
      <PageHeader title="First Aid Protocols" />
      <main className={`page ${styles.page}`}>
        <UrgentGrid protocols={URGENT} />
        <div role="search" className={styles.search}>
          <label htmlFor={searchId} className="field__label">
            Search protocols
          </label>
          <input
            id={searchId}
            type="search"
            className="input"
            value={query}
            placeholder="A word or symptom, such as bee sting"
            autoComplete="off"
            enterKeyHint="search"
            onChange={(e) => {
              const q = e.target.value;
              setParams(q ? { q } : {}, { replace: true });
            }}
          />
        </div>
        <section aria-labelledby={`${searchId}-results`} className={styles.section}>
          <h2 id={`${searchId}-results`} className="section-title">
            {searching ? `Results for “${query.trim()}”` : 'All protocols'}
          </h2>
          {searching ? (
            <p className={styles.count} role="status">
              {results.length === 1 ? '1 protocol' : `${results.length} protocols`}
            </p>
          ) : null}
          {results.length > 0 ? (
            <ProtocolList
              protocols={results}
              label={searching ? 'Search results' : 'All protocols'}
            />
          ) : (
            <Callout tone="info" className={styles.empty}>
              <SearchX aria-hidden="true" size={24} />
              <span>
                No protocol matches “{query.trim()}”. Try another word, such as bleeding, burn or
                breathing.
              </span>
            </Callout>
          )}
        </section>
      </main>
    </>
  );
}
