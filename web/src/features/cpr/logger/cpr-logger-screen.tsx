// /cpr-logger/{sessionId}: the arrest screen. Big running clocks, the prompts (on screen and
// spoken), the metronome, one tap per event timestamped at the tap, corrections as voids, and
// the timeline. Everything is read from and written to the device, so it works without
// signal; the sync engine sends the events when it can, and merges a second device's.
import type { CprEventDetails } from '@rescuelog/sync-protocol/cpr/cpr-event';
import { cprSessionRecord } from '@rescuelog/sync-protocol/cpr/cpr-session';
import {
  ADRENALINE_DOSE_MG,
  cprState,
  describeCprEvent,
  earlyAdrenalineWarning,
  formatOffset,
  type CprEventLike,
} from '@rescuelog/sync-protocol/cpr/cpr-timeline';
import { hasPermission } from '@rescuelog/sync-protocol/permissions';
import { AlertTriangle, CloudOff, Volume2, VolumeX } from 'lucide-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { formKit } from '@/components/record-form/form-kit';
import { newRecordId } from '@/lib/records/record-writes';
import { RecordSyncMark } from '@/components/record-form/record-sync-mark';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { PageHeader } from '@/components/ui/page-header';
import { Spinner } from '@/components/ui/spinner';
import { StatusPage } from '@/components/ui/status-page';
import { useUser } from '@/lib/auth';
import { cx } from '@/lib/cx';
import { CaseLink } from '../components/case-link';
import { CprSummaryView } from '../components/cpr-summary-view';
import { CprTimelineList } from '../components/cpr-timeline-list';
import { ReasonDialog } from '../components/reason-dialog';
import { useCprSettings } from '../data/cpr-protocol';
import { logCprEvent, voidCprEvent, type LoggableCprEvent } from '../data/cpr-writes';
import {
  useCprEvents,
  useCprSessionBySessionId,
  type LocalCprSession,
} from '../data/use-cpr-session';
import styles from '../cpr.module.css';
import { useMetronome } from './use-metronome';
import { SPEECH_NOT_SUPPORTED, useSpeech } from './use-speech';
import { useWakeLock } from './use-wake-lock';

const Session = formKit(cprSessionRecord);

const RHYTHMS = [
  { value: 'VF', label: 'VF' },
  { value: 'pVT', label: 'pVT' },
  { value: 'PEA', label: 'PEA' },
  { value: 'asystole', label: 'Asystole' },
  { value: 'ROSC', label: 'ROSC' },
] as const;
const ENERGY_STEP = 10;
const ENERGY_MIN = 10;
const ENERGY_MAX = 360;

/** The wall clock, re-read every `everyMs` (a fake clock in the tests drives it too). */
function useNow(everyMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), everyMs);
    return () => window.clearInterval(timer);
  }, [everyMs]);
  return now;
}

function Clock({
  label,
  value,
  tone,
  big,
}: {
  label: string;
  value: string;
  tone?: 'warning' | 'danger' | undefined;
  big?: boolean;
}) {
  return (
    <div className={cx(styles.clock, big && styles.clockBig, tone && styles[tone])}>
      <span className={styles.clockLabel}>{label}</span>
      <span className={styles.clockValue}>{value}</span>
    </div>
  );
}

function MetronomePanel({ rate, running }: { rate: number; running: boolean }) {
  const [muted, setMuted] = useState(false);
  const { beat, audible } = useMetronome(rate, running, muted);
  return (
    <div className={styles.metronome}>
      <span
        className={cx(styles.pulse, beat % 2 === 0 ? styles.pulseA : styles.pulseB)}
        aria-hidden="true"
        data-beat={beat}
      />
      <span className={styles.metronomeText}>
        Metronome {rate}/min{!audible ? ' (no sound on this device)' : ''}
      </span>
      <button
        type="button"
        className={cx('button', styles.smallButton)}
        aria-pressed={muted}
        onClick={() => setMuted((m) => !m)}
      >
        {muted ? (
          <VolumeX aria-hidden="true" size={20} />
        ) : (
          <Volume2 aria-hidden="true" size={20} />
        )}
        {muted ? 'Unmute click' : 'Mute click'}
      </button>
    </div>
  );
}

function SessionDetails({ session, readOnly }: { session: LocalCprSession; readOnly: boolean }) {
  return (
    <details className={styles.details}>
      <summary className={styles.detailsSummary}>
        Patient and scene (age, location, witnessed, case){readOnly ? ' — locked' : ''}
      </summary>
      <Session.Form record={session}>
        <Session.TextField field="patientAge" label="Patient age" inputMode="numeric" />
        <Session.TextField field="incidentLocation" label="Location" />
        <Session.YesNo field="witnessed" label="Arrest witnessed" />
        <Session.YesNo field="bystanderCpr" label="Bystander CPR before arrival" />
        <Session.TextField field="eventsLeadingUp" label="Events leading up" multiline />
      </Session.Form>
      <CaseLink session={session} readOnly={readOnly} />
    </details>
  );
}

export function CprLoggerScreen({ sessionId }: { sessionId: string }) {
  const lookup = useCprSessionBySessionId(sessionId);
  switch (lookup.state) {
    case 'loading':
      return (
        <main className="page-center" aria-busy="true">
          <Spinner label="Opening the CPR session" />
        </main>
      );
    case 'no-device-store':
      return (
        <StatusPage
          icon={<CloudOff size={40} />}
          title="The CPR logger needs this device's storage"
          tone="warning"
          actions={
            <Link to="/" className="button button--primary button--block">
              Back to Home
            </Link>
          }
        >
          <p>This browser is not keeping data on the device, so an arrest cannot be logged here.</p>
        </StatusPage>
      );
    case 'missing':
    case 'unreadable':
      return (
        <StatusPage
          icon={<AlertTriangle size={40} />}
          title={`CPR session ${sessionId} is not on this device`}
          tone="warning"
          actions={
            <>
              <Link to="/cpr-logs" className="button button--primary button--block">
                CPR Logs
              </Link>
              <Link to="/" className="button button--block">
                Back to Home
              </Link>
            </>
          }
        >
          <p>
            {lookup.state === 'unreadable'
              ? `It could not be read: ${lookup.message}`
              : 'It has not reached this device yet. Join it from CPR Logs once the device has synced.'}
          </p>
        </StatusPage>
      );
    case 'ready':
      return <CprLogger session={lookup.record as LocalCprSession} />;
  }
}

type Dialogs =
  | { kind: 'void'; event: CprEventLike }
  | { kind: 'note' }
  | { kind: 'termination' }
  | { kind: 'rosc' }
  | null;

function CprLogger({ session }: { session: LocalCprSession }) {
  const { data: user } = useUser();
  const settings = useCprSettings();
  const rows = useCprEvents(session.id);
  const events = useMemo<CprEventLike[]>(
    () =>
      (rows ?? []).map((e) => ({
        id: e.id,
        type: e.type ?? 'note',
        at: e.at ?? session.startTime ?? '',
        details: (e.details ?? {}) as Record<string, unknown>,
        voidsEventId: e.voidsEventId ?? null,
        userId: e.userId ?? 0,
      })),
    [rows, session.startTime],
  );
  const startTime = session.startTime ?? new Date().toISOString();
  const now = useNow(250);
  const state = cprState(startTime, events, now, {
    adrenalineIntervalMinutes: settings.adrenalineIntervalMinutes,
  });
  const ended = session.status === 'completed' || state.ended;
  const canWrite = user
    ? hasPermission(user, 'cprLogger', 'create') || hasPermission(user, 'cprLogger', 'edit')
    : false;
  const [voice, setVoice] = useState(true);
  const speech = useSpeech(voice);
  const wake = useWakeLock(!ended);
  const [energy, setEnergy] = useState(settings.defaultShockEnergyJoules);
  const [notice, setNotice] = useState<{ text: string; warning?: boolean } | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [dialog, setDialog] = useState<Dialogs>(null);
  const author = user ? [user.fullName, user.callSign].filter(Boolean).join(', ') : '';

  // Each prompt is spoken once when it becomes due (its key changes with each cycle / dose).
  const spoken = useRef(new Set<string>());
  const promptKeys = state.prompts.map((p) => p.key).join('|');
  useEffect(() => {
    for (const p of state.prompts) {
      if (spoken.current.has(p.key)) continue;
      spoken.current.add(p.key);
      speech.speak(p.text);
    }
    // promptKeys stands for state.prompts.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [promptKeys, speech]);

  // Taps of this screen, for the early-dose check before the device's read has caught up
  // with a tap a moment ago (two quick taps).
  const tapped = useRef<CprEventLike[]>([]);
  const log = (type: LoggableCprEvent, details: CprEventDetails = {}) => {
    const at = new Date();
    const full: CprEventDetails = author ? { ...details, by: author } : details;
    const line = describeCprEvent({ type, details: full as Record<string, unknown> });
    const known = new Set(events.map((e) => e.id));
    const warning =
      type === 'adrenaline'
        ? earlyAdrenalineWarning(
            [...events, ...tapped.current.filter((e) => !known.has(e.id))],
            at.getTime(),
          )
        : null;
    const id = newRecordId();
    tapped.current.push({
      id,
      type,
      at: at.toISOString(),
      details: full as Record<string, unknown>,
      voidsEventId: null,
      userId: user?.id ?? 0,
    });
    setFailure(null);
    logCprEvent(session.id, type, full, at, id).then(
      () =>
        setNotice(
          warning
            ? { text: `${line} logged. ${warning}`, warning: true }
            : {
                text: `${line} logged at T+${formatOffset(at.getTime() - Date.parse(startTime))}.`,
              },
        ),
      (error: unknown) =>
        setFailure(
          `${line} was not logged: ${error instanceof Error ? error.message : String(error)}`,
        ),
    );
  };

  const adrenalineDue = state.prompts.some((p) => p.id === 'adrenaline');
  const sinceAdrenaline = state.sinceAdrenalineMs;
  const early = sinceAdrenaline !== null && sinceAdrenaline < 3 * 60_000;

  return (
    <div className={cx('page', styles.page)}>
      <PageHeader
        title={`CPR ${session.sessionId ?? ''}`}
        actions={<RecordSyncMark recordId={session.id} showSynced />}
      />
      <main className={styles.main}>
        <section className={styles.clocks} aria-label="Clocks">
          <Clock label="Total" value={formatOffset(state.elapsedMs)} big />
          <Clock
            label={`Cycle ${state.cycleNumber}`}
            value={ended ? '—' : formatOffset(state.cycleElapsedMs)}
            tone={!ended && state.cycleElapsedMs >= 120_000 ? 'danger' : undefined}
            big
          />
          <Clock
            label="Since adrenaline"
            value={sinceAdrenaline === null ? '—' : formatOffset(sinceAdrenaline)}
            tone={adrenalineDue ? 'danger' : early ? 'warning' : undefined}
          />
          <Clock label="Shocks" value={String(state.shockCount)} />
          <Clock
            label="Rhythm"
            value={state.rhythm === 'asystole' ? 'Asystole' : (state.rhythm ?? 'Not checked')}
          />
          <Clock
            label="Pathway"
            value={
              state.pathway === 'shockable'
                ? 'Shockable'
                : state.pathway === 'non-shockable'
                  ? 'Non-shockable'
                  : '—'
            }
          />
        </section>

        <section className={styles.prompts} aria-label="Prompts">
          <div role="status" aria-live="assertive" className={styles.promptList}>
            {ended ? (
              <p className={styles.endedBanner}>
                Session ended
                {session.outcome === 'rosc'
                  ? ': ROSC'
                  : session.outcome === 'terminated'
                    ? ': resuscitation terminated'
                    : ''}{' '}
                after {formatOffset(state.elapsedMs)}. It is locked; wrong entries can still be
                voided.
              </p>
            ) : (
              state.prompts.map((p) => (
                <p key={p.key} className={styles.prompt}>
                  {p.text}
                </p>
              ))
            )}
          </div>
          <div className={styles.promptTools}>
            {speech.supported ? (
              <button
                type="button"
                className={cx('button', styles.smallButton)}
                aria-pressed={voice}
                onClick={() => setVoice((v) => !v)}
              >
                {voice ? 'Voice prompts on' : 'Voice prompts off'}
              </button>
            ) : (
              <p className={styles.muted}>{SPEECH_NOT_SUPPORTED}</p>
            )}
            {!ended ? <MetronomePanel rate={settings.metronomeRate} running={!ended} /> : null}
            {wake === 'unsupported' || wake === 'refused' ? (
              <p className={styles.muted}>The screen may dim: keep it awake by hand.</p>
            ) : null}
          </div>
        </section>

        <div aria-live="polite" className={styles.noticeSlot}>
          {notice ? (
            <p className={cx(styles.notice, notice.warning && styles.noticeWarning)}>
              {notice.text}
            </p>
          ) : null}
          {failure ? <p className={cx(styles.notice, styles.noticeWarning)}>{failure}</p> : null}
        </div>

        {!ended && canWrite ? (
          <section className={styles.events} aria-label="Log an event">
            <fieldset className={styles.group}>
              <legend>Rhythm check</legend>
              <div className={styles.buttons}>
                {RHYTHMS.map((r) => (
                  <button
                    key={r.value}
                    type="button"
                    className={cx('button', styles.eventButton)}
                    onClick={() => log('rhythm_check', { rhythm: r.value })}
                  >
                    {r.label}
                  </button>
                ))}
              </div>
            </fieldset>
            <fieldset className={styles.group}>
              <legend>Shock and drugs</legend>
              <div className={styles.buttons}>
                <button
                  type="button"
                  className={cx('button button--danger', styles.eventButton)}
                  onClick={() => log('shock', { energyJoules: energy })}
                >
                  Shock {energy} J
                </button>
                <div className={styles.stepper} role="group" aria-label="Shock energy">
                  <button
                    type="button"
                    className={cx('button', styles.stepButton)}
                    aria-label="Lower energy"
                    disabled={energy <= ENERGY_MIN}
                    onClick={() => setEnergy((e) => Math.max(ENERGY_MIN, e - ENERGY_STEP))}
                  >
                    −
                  </button>
                  <button
                    type="button"
                    className={cx('button', styles.stepButton)}
                    aria-label="Higher energy"
                    disabled={energy >= ENERGY_MAX}
                    onClick={() => setEnergy((e) => Math.min(ENERGY_MAX, e + ENERGY_STEP))}
                  >
                    +
                  </button>
                </div>
                <button
                  type="button"
                  className={cx('button', styles.eventButton, adrenalineDue && styles.due)}
                  onClick={() => log('adrenaline', { doseMg: ADRENALINE_DOSE_MG })}
                >
                  Adrenaline {ADRENALINE_DOSE_MG} mg
                </button>
                <button
                  type="button"
                  className={cx(
                    'button',
                    styles.eventButton,
                    state.prompts.some((p) => p.id === 'amiodarone') && styles.due,
                  )}
                  onClick={() => log('amiodarone', { doseMg: state.nextAmiodaroneMg ?? 150 })}
                >
                  Amiodarone {state.nextAmiodaroneMg ?? 150} mg
                </button>
              </div>
            </fieldset>
            <fieldset className={styles.group}>
              <legend>Airway, access, team</legend>
              <div className={styles.buttons}>
                {(['BVM', 'SGA', 'ETT'] as const).map((airway) => (
                  <button
                    key={airway}
                    type="button"
                    className={cx('button', styles.eventButton)}
                    onClick={() => log('airway', { airway })}
                  >
                    Airway {airway}
                  </button>
                ))}
                {(['IV', 'IO'] as const).map((access) => (
                  <button
                    key={access}
                    type="button"
                    className={cx('button', styles.eventButton)}
                    onClick={() => log('iv_io_access', { access })}
                  >
                    {access} access
                  </button>
                ))}
                <button
                  type="button"
                  className={cx('button', styles.eventButton)}
                  onClick={() => log('compressor_change')}
                >
                  Compressor change
                </button>
                <button
                  type="button"
                  className={cx('button', styles.eventButton)}
                  onClick={() => setDialog({ kind: 'note' })}
                >
                  Note…
                </button>
              </div>
            </fieldset>
            <fieldset className={styles.group}>
              <legend>End the session</legend>
              <div className={styles.buttons}>
                <button
                  type="button"
                  className={cx('button button--primary', styles.eventButton)}
                  onClick={() => setDialog({ kind: 'rosc' })}
                >
                  ROSC – end session
                </button>
                <button
                  type="button"
                  className={cx('button', styles.eventButton)}
                  onClick={() => setDialog({ kind: 'termination' })}
                >
                  Terminate resuscitation…
                </button>
              </div>
            </fieldset>
          </section>
        ) : null}

        {ended ? (
          <section className={styles.card} aria-labelledby="cpr-summary-title">
            <h2 id="cpr-summary-title" className={styles.sectionTitle}>
              Summary
            </h2>
            <CprSummaryView session={session} events={events} />
            <Link to={`/cpr-logs/${session.sessionId ?? ''}`} className="button button--block">
              Open in CPR Logs
            </Link>
          </section>
        ) : null}

        <section className={styles.card} aria-labelledby="cpr-timeline-title">
          <h2 id="cpr-timeline-title" className={styles.sectionTitle}>
            Timeline
          </h2>
          <CprTimelineList
            startTime={startTime}
            events={events}
            currentUserId={user?.id}
            {...(canWrite
              ? { onVoid: (event: CprEventLike) => setDialog({ kind: 'void', event }) }
              : {})}
          />
        </section>

        <SessionDetails session={session} readOnly={ended} />
      </main>

      <ReasonDialog
        open={dialog?.kind === 'void'}
        onOpenChange={(open) => !open && setDialog(null)}
        title="Void this event?"
        description={
          dialog?.kind === 'void'
            ? `${describeCprEvent(dialog.event)} stays on the timeline, struck through, with your reason.`
            : ''
        }
        label="Reason"
        confirmLabel="Void event"
        destructive
        onConfirm={(reason) => {
          if (dialog?.kind !== 'void') return;
          const target = dialog.event;
          voidCprEvent(session.id, target.id, reason).then(
            () => setNotice({ text: `${describeCprEvent(target)} voided.` }),
            (error: unknown) =>
              setFailure(`Not voided: ${error instanceof Error ? error.message : String(error)}`),
          );
        }}
      />
      <ReasonDialog
        open={dialog?.kind === 'note'}
        onOpenChange={(open) => !open && setDialog(null)}
        title="Add a note"
        description="The note is timestamped now."
        label="Note"
        confirmLabel="Add note"
        onConfirm={(note) => log('note', { note })}
      />
      <ReasonDialog
        open={dialog?.kind === 'termination'}
        onOpenChange={(open) => !open && setDialog(null)}
        title="Terminate resuscitation?"
        description="This ends and locks the session."
        label="Reason for termination"
        confirmLabel="Terminate"
        destructive
        onConfirm={(reason) => log('termination', { reason })}
      />
      <ConfirmDialog
        open={dialog?.kind === 'rosc'}
        onOpenChange={(open) => !open && setDialog(null)}
        title="Return of spontaneous circulation?"
        description="ROSC ends and locks the session now."
        confirmLabel="Log ROSC"
        onConfirm={() => log('rosc')}
      />
    </div>
  );
}
