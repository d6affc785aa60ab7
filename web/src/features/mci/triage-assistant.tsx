// START (adults) / JumpSTART (children), one question at a time (sync-protocol mci/triage.ts).
// It proposes a colour; the responder confirms it or picks another, and the triage row keeps
// both (an override is a colour that differs from the proposal).
import type { TriageColour } from '@rescuelog/sync-protocol/cases/clinical';
import {
  colourLabel,
  triageStep,
  type TriageAnswers,
  type TriageScale,
} from '@rescuelog/sync-protocol/mci/triage';
import { useState } from 'react';
import type { TriageInput } from './mci-writes';
import { ColourButtons } from './colour-buttons';
import styles from './mci.module.css';

export function TriageAssistant({
  scale,
  onDone,
  onCancel,
}: {
  scale: TriageScale;
  onDone: (triage: TriageInput) => void;
  onCancel: () => void;
}) {
  const [method, setMethod] = useState<'START' | 'JumpSTART' | null>(null);
  const [answers, setAnswers] = useState<TriageAnswers>({});

  if (method === null)
    return (
      <section className={styles.assistant} aria-label="Triage assistant">
        <h3 className={styles.question}>Adult or child?</h3>
        <div className={styles.answerGrid}>
          <button
            type="button"
            className="button button--secondary"
            onClick={() => setMethod('START')}
          >
            Adult (START)
          </button>
          <button
            type="button"
            className="button button--secondary"
            onClick={() => setMethod('JumpSTART')}
          >
            Child (JumpSTART)
          </button>
        </div>
        <button type="button" className="button button--secondary" onClick={onCancel}>
          Cancel
        </button>
      </section>
    );

  const step = triageStep(method, answers);
  const pick = (colour: TriageColour) =>
    onDone({
      colour,
      method,
      proposedColour: step.kind === 'result' ? step.colour : null,
      answers,
    });
  return (
    <section className={styles.assistant} aria-label={`${method} triage`}>
      {step.kind === 'question' ? (
        <>
          <h3 className={styles.question}>{step.question.text}</h3>
          <div className={styles.answerGrid}>
            {step.question.options.map((o) => (
              <button
                key={o.value}
                type="button"
                className="button button--secondary"
                onClick={() => setAnswers({ ...answers, [step.question.id]: o.value })}
              >
                {o.label}
              </button>
            ))}
          </div>
        </>
      ) : (
        <>
          <h3 className={styles.question}>
            {method} proposes {step.colour} ({colourLabel(step.colour, 'START')})
          </h3>
          <p className={styles.reason}>{step.reason}</p>
          <button
            type="button"
            className="button button--primary button--block"
            onClick={() => pick(step.colour)}
          >
            Confirm {step.colour}
          </button>
          <ColourButtons
            scale={scale}
            legend="Or override with another colour"
            proposed={step.colour}
            onPick={pick}
          />
        </>
      )}
      <div className={styles.actions}>
        {Object.keys(answers).length > 0 ? (
          <button
            type="button"
            className="button button--secondary"
            onClick={() => {
              const keys = Object.keys(answers);
              const last = keys[keys.length - 1];
              setAnswers(Object.fromEntries(Object.entries(answers).filter(([k]) => k !== last)));
            }}
          >
            Back
          </button>
        ) : null}
        <button type="button" className="button button--secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </section>
  );
}
