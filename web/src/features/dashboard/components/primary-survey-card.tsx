import styles from './primary-survey-card.module.css';

const ITEMS: ReadonlyArray<{ term: string; detail?: string }> = [
  { term: 'Hazard', detail: 'scene safety' },
  { term: 'Hello', detail: 'responsiveness' },
  { term: 'Help', detail: 'call emergency services' },
  { term: 'Hemorrhage', detail: 'control severe bleeding' },
  { term: 'Airway' },
  { term: 'Breathing' },
  { term: 'Circulation' },
];

export function PrimarySurveyCard() {
  return (
    <section className="card" aria-labelledby="primary-survey-title">
      <h2 id="primary-survey-title" className="card__title">
        Primary Survey Quick Reference
      </h2>
      <ol className={styles.list}>
        {ITEMS.map(({ term, detail }) => (
          <li key={term}>
            <strong>{term}</strong>
            {detail ? ` (${detail})` : null}
          </li>
        ))}
      </ol>
    </section>
  );
}
