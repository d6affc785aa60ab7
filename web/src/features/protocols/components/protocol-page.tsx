// /protocols/{category}: one protocol, read aloud whole or step by step (issue 42). Large
// Previous / Repeat / Next buttons drive the reader (../reader.ts); the current step is
// highlighted and scrolled into view; where the browser has no speech synthesis the steps still
// step through, under spec §8's message. An unknown category shows a message and the list.
import type { Protocol, ProtocolAge } from '@rescuelog/sync-protocol/reference/first-aid';
import {
  ChevronLeft,
  ChevronRight,
  CircleAlert,
  Phone,
  Play,
  RotateCcw,
  Square,
  TriangleAlert,
} from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { Callout } from '@/components/ui/callout';
import { PageHeader } from '@/components/ui/page-header';
import { cx } from '@/lib/cx';
import { PROTOCOLS, protocolFor } from '../protocol-library';
import {
  canGoBack,
  canGoOn,
  runReader,
  startReader,
  stepUtterance,
  type ReaderCommand,
} from '../reader';
import { useSpeech } from '../speech';
import { ProtocolList } from './protocol-list';
import { VoiceSettings } from './voice-settings';
import styles from './protocols.module.css';

const BACK = { to: '/protocols', label: 'Back to First Aid Protocols' };

export function ProtocolPage({ category }: { category: string }) {
  const protocol = protocolFor(category);
  if (!protocol) {
    return (
      <>
        <PageHeader title="First Aid Protocols" back={BACK} />
        <main className={`page ${styles.page}`}>
          <Callout tone="warning" role="alert">
            <CircleAlert aria-hidden="true" size={24} />
            <span>
              There is no protocol called “{category}”. Choose one of the protocols below.
            </span>
          </Callout>
          <ProtocolList protocols={PROTOCOLS} label="All protocols" />
        </main>
      </>
    );
  }
  return <ProtocolReader key={protocol.category} protocol={protocol} />;
}

function AgeTabs({
  protocol,
  age,
  onChange,
}: {
  protocol: Protocol;
  age: ProtocolAge;
  onChange: (age: ProtocolAge) => void;
}) {
  if (protocol.variants.length < 2) return null;
  return (
    <fieldset className={styles.ages}>
      <legend className="field__label">Age group</legend>
      <div className={styles.ageChoices}>
        {protocol.variants.map((v) => (
          <label key={v.age} className={cx(styles.ageChoice, v.age === age && styles.ageChosen)}>
            <input
              type="radio"
              name="age"
              value={v.age}
              checked={v.age === age}
              onChange={() => onChange(v.age)}
            />
            {v.label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

function ProtocolReader({ protocol }: { protocol: Protocol }) {
  const [age, setAge] = useState<ProtocolAge>(protocol.variants[0]?.age ?? 'all');
  const variant = protocol.variants.find((v) => v.age === age) ?? protocol.variants[0];
  const steps = variant?.steps ?? [];
  const [reader, setReader] = useState(() => startReader(steps.length));
  const speech = useSpeech();
  const stepRefs = useRef<(HTMLLIElement | null)[]>([]);
  const stepsId = useId();

  const run = (command: ReaderCommand, list: readonly string[] = steps) => {
    const { state, say } = runReader(reader, command);
    setReader(state);
    if (say.length === 0) {
      if (command.type === 'stop') speech.stop();
      return;
    }
    speech.speak(
      say.map((i) => stepUtterance(i, list[i] ?? '')),
      {
        onStart: (position) =>
          setReader((s) => runReader(s, { type: 'reached', index: say[position] ?? 0 }).state),
        onDone: () => setReader((s) => runReader(s, { type: 'stop' }).state),
      },
    );
  };

  // The current step stays in view as the reader moves, on a phone too.
  useEffect(() => {
    const el = stepRefs.current[reader.index];
    if (el && typeof el.scrollIntoView === 'function') {
      const reduce = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
      el.scrollIntoView({ block: 'center', behavior: reduce ? 'auto' : 'smooth' });
    }
  }, [reader.index, age]);

  const changeAge = (next: ProtocolAge) => {
    speech.stop();
    setAge(next);
    const total = protocol.variants.find((v) => v.age === next)?.steps.length ?? 0;
    setReader(startReader(total));
  };

  const warnings = [...protocol.warnings, ...(variant?.warnings ?? [])];

  return (
    <>
      <PageHeader title={protocol.title} back={BACK} />
      <main className={`page ${styles.page} ${styles.reader}`}>
        <p className={styles.summary}>{protocol.summary}</p>

        <Callout tone="danger" strong>
          <Phone aria-hidden="true" size={24} />
          <div>
            <h2 className={styles.calloutTitle}>When to call for help</h2>
            <ul className={styles.plainList}>
              {protocol.callForHelp.map((c) => (
                <li key={c}>{c}</li>
              ))}
            </ul>
          </div>
        </Callout>

        <AgeTabs protocol={protocol} age={age} onChange={changeAge} />

        {!speech.supported ? (
          <Callout tone="warning" as="p" role="status">
            <CircleAlert aria-hidden="true" size={24} />
            Speech synthesis not supported
          </Callout>
        ) : null}

        <section aria-labelledby={stepsId} className={styles.section}>
          <div className={styles.stepsHeader}>
            <h2 id={stepsId} className="section-title">
              Steps{variant && protocol.variants.length > 1 ? `: ${variant.label}` : ''}
            </h2>
            {speech.supported ? (
              reader.readingAll ? (
                <button
                  type="button"
                  className="button button--secondary"
                  onClick={() => run({ type: 'stop' })}
                >
                  <Square aria-hidden="true" size={20} />
                  Stop reading
                </button>
              ) : (
                <button
                  type="button"
                  className="button button--secondary"
                  onClick={() => run({ type: 'readAll' })}
                >
                  <Play aria-hidden="true" size={20} />
                  Read all aloud
                </button>
              )
            ) : null}
          </div>
          <ol className={styles.steps}>
            {steps.map((text, i) => (
              <li
                key={`${age}-${i}`}
                ref={(el) => {
                  stepRefs.current[i] = el;
                }}
                className={cx(styles.step, i === reader.index && styles.current)}
                aria-current={i === reader.index ? 'step' : undefined}
              >
                <button
                  type="button"
                  className={styles.stepButton}
                  onClick={() => run({ type: 'goto', index: i })}
                >
                  <span className={styles.stepNumber} aria-hidden="true">
                    {i + 1}
                  </span>
                  <span>{text}</span>
                </button>
              </li>
            ))}
          </ol>
        </section>

        <section aria-labelledby={`${stepsId}-warnings`} className={styles.section}>
          <h2 id={`${stepsId}-warnings`} className="section-title">
            Warnings
          </h2>
          <ul className={styles.warnings}>
            {warnings.map((w) => (
              <li key={w}>
                <TriangleAlert aria-hidden="true" size={20} />
                <span>{w}</span>
              </li>
            ))}
          </ul>
        </section>

        {speech.supported ? (
          <VoiceSettings
            settings={speech.settings}
            voices={speech.voices}
            onChange={speech.setSettings}
          />
        ) : null}

        <p className={styles.guideline}>
          Follows: {protocol.guideline.name} ({protocol.guideline.publisher},{' '}
          {protocol.guideline.year}).
        </p>

        <div className={styles.controls} role="group" aria-label="Step controls">
          <p className={styles.position} aria-live="polite">
            Step {reader.index + 1} of {steps.length}
          </p>
          <button
            type="button"
            className="button button--secondary"
            disabled={!canGoBack(reader)}
            onClick={() => run({ type: 'previous' })}
          >
            <ChevronLeft aria-hidden="true" size={28} />
            Previous
          </button>
          <button
            type="button"
            className="button button--secondary"
            onClick={() => run({ type: 'repeat' })}
          >
            <RotateCcw aria-hidden="true" size={24} />
            Repeat
          </button>
          <button
            type="button"
            className="button button--primary"
            disabled={!canGoOn(reader)}
            onClick={() => run({ type: 'next' })}
          >
            Next
            <ChevronRight aria-hidden="true" size={28} />
          </button>
        </div>
        {reader.readingAll ? (
          <p className="sr-only" role="status">
            Reading all steps aloud.
          </p>
        ) : null}
      </main>
    </>
  );
}
