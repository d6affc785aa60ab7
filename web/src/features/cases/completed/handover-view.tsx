// The one-page handover summary on screen and on paper: ISBAR sections (Identify, Situation,
// Background, Assessment, Recommendation) built by buildHandover from what is held now. The
// print style sheet (completed.css, @media print) prints this block alone, on one A4 page.
import type { Handover } from '@rescuelog/sync-protocol/case/handover';

export function HandoverView({ handover }: { handover: Handover }) {
  return (
    <article className="handover" aria-labelledby="handover-title">
      <header className="handover__header">
        <h3 id="handover-title" className="handover__title">
          {handover.title}
        </h3>
        <p className="handover__meta">Generated {handover.generatedAt} (South African time)</p>
      </header>
      {handover.sections.map((section) => (
        <section
          key={section.key}
          className="handover__section"
          aria-labelledby={`handover-${section.key}`}
        >
          <h4 id={`handover-${section.key}`} className="handover__section-title">
            <span className="handover__letter" aria-hidden="true">
              {section.title.charAt(0)}
            </span>
            {section.title}
          </h4>
          {section.lines.length === 0 ? (
            <p className="handover__empty">Nothing recorded</p>
          ) : (
            <dl className="handover__lines">
              {section.lines.map((line, i) => (
                <div key={`${line.label}-${String(i)}`} className="handover__line">
                  <dt>{line.label}</dt>
                  <dd>{line.value}</dd>
                </div>
              ))}
            </dl>
          )}
        </section>
      ))}
      <footer className="handover__footer">
        Confidential patient information (POPIA). Case {handover.caseId}.
      </footer>
    </article>
  );
}
