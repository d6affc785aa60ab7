// The one-page handover summary on screen and on paper: ISBAR sections (Identify, Situation,
// Background, Assessment, Recommendation) built by buildHandover from what is held now. The
// print style sheet (completed.css, @media print) prints this block alone, on one A4 page.
import type { Handover } from '@rescuelog/sync-protocol/cases/handover';
import styles from './completed.module.css';

export function HandoverView({ handover }: { handover: Handover }) {
  return (
    <article className={styles.handover} aria-labelledby="handover-title">
      <header className="handover__header">
        {handover.organisation ? (
          <p className={styles.handoverMeta}>{handover.organisation}</p>
        ) : null}
        <h3 id="handover-title" className={styles.handoverTitle}>
          {handover.title}
        </h3>
        <p className={styles.handoverMeta}>Generated {handover.generatedAt} (South African time)</p>
      </header>
      {handover.sections.map((section) => (
        <section
          key={section.key}
          className="handover__section"
          aria-labelledby={`handover-${section.key}`}
        >
          <h4 id={`handover-${section.key}`} className={styles.handoverSectionTitle}>
            <span className={styles.handoverLetter} aria-hidden="true">
              {section.title.charAt(0)}
            </span>
            {section.title}
          </h4>
          {section.lines.length === 0 ? (
            <p className={styles.handoverEmpty}>Nothing recorded</p>
          ) : (
            <dl className={styles.handoverLines}>
              {section.lines.map((line, i) => (
                <div key={`${line.label}-${String(i)}`} className={styles.handoverLine}>
                  <dt>{line.label}</dt>
                  <dd>{line.value}</dd>
                </div>
              ))}
            </dl>
          )}
        </section>
      ))}
      <footer className={styles.handoverFooter}>
        Confidential patient information (POPIA). Case {handover.caseId}.
      </footer>
    </article>
  );
}
