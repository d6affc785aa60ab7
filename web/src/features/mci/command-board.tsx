// The command board of one incident (/multi-patient/{id}): the clock, counts by colour, on
// scene / transported / unassigned, a casualty added in at most three taps (tag suggested,
// colour) or through the START/JumpSTART assistant, the casualty list sorted by priority or
// status, who is working the incident and when each last synced, the METHANE report, and
// closing the incident. Everything reads and writes the device's copy: it works offline.
import type { TriageColour } from '@rescuelog/sync-protocol/cases/clinical';
import { isIncidentClosed } from '@rescuelog/sync-protocol/mci/mci-incident';
import {
  colourLabel,
  SCALE_COLOURS,
  suggestTag,
  type TriageScale,
} from '@rescuelog/sync-protocol/mci/triage';
import { formatDateTime, formatTime } from '@rescuelog/sync-protocol/time';
import { AlertTriangle } from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import { Callout } from '@/components/ui/callout';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { useUser } from '@/lib/auth';
import { cx } from '@/lib/cx';
import { useLiveSync } from '@/lib/sync/use-live-sync';
import { CasualtyPanel } from './casualty-panel';
import { ColourButtons, ColourChip, colourClass } from './colour-buttons';
import { MethaneForm, MethaneReport } from './methane-panel';
import { addCasualty, closeIncident, type TriageInput } from './mci-writes';
import { TriageAssistant } from './triage-assistant';
import { sortBoard, type BoardRow, type BoardSort, type IncidentBoard } from './use-incident-board';
import styles from './mci.module.css';

/** "1:05:09" since `start`, to `end` or now. */
export function elapsed(
  start: string | undefined,
  end: string | null | undefined,
  now: number,
): string {
  const from = start ? Date.parse(start) : NaN;
  if (Number.isNaN(from)) return '–';
  const to = end ? Date.parse(end) : now;
  const s = Math.max(0, Math.floor((to - from) / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  return `${String(h)}:${String(m).padStart(2, '0')}:${String(sec).padStart(2, '0')}`;
}

function useNow(active: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return undefined;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [active]);
  return now;
}

export function IncidentClock({ board }: { board: IncidentBoard }) {
  const { incident } = board;
  const closed = isIncidentClosed(incident);
  const now = useNow(!closed);
  return (
    <p className={styles.clock}>
      <span className={styles.clockLabel}>{closed ? 'Duration' : 'Incident clock'}</span>{' '}
      <span className={styles.clockValue} aria-live="off">
        {elapsed(incident.startedAt, incident.endedAt, now)}
      </span>{' '}
      <span className={styles.muted}>
        since {formatTime(incident.startedAt)}
        {incident.endedAt ? `, ended ${formatTime(incident.endedAt)}` : ''}
      </span>
    </p>
  );
}

export function BoardCounts({ board }: { board: IncidentBoard }) {
  const scale: TriageScale = board.incident.triageScale ?? 'START';
  const { counts } = board;
  const shown = SCALE_COLOURS[scale].concat(
    (Object.keys(counts.byColour) as TriageColour[]).filter(
      (c) => !SCALE_COLOURS[scale].includes(c) && counts.byColour[c] > 0,
    ),
  );
  return (
    <section aria-label="Counts" className={styles.counts}>
      <dl className={styles.countGrid}>
        {shown.map((colour) => (
          <div key={colour} className={cx(styles.count, colourClass(colour))}>
            <dt>
              {colour} <span className={styles.chipLabel}>{colourLabel(colour, scale)}</span>
            </dt>
            <dd data-testid={`count-${colour}`}>{counts.byColour[colour]}</dd>
          </div>
        ))}
      </dl>
      <dl className={styles.statusCounts}>
        <div>
          <dt>Total</dt>
          <dd data-testid="count-total">{counts.total}</dd>
        </div>
        <div>
          <dt>On scene</dt>
          <dd data-testid="count-on-scene">{counts.onScene}</dd>
        </div>
        <div>
          <dt>Transported</dt>
          <dd data-testid="count-transported">{counts.transported}</dd>
        </div>
        <div>
          <dt>Unassigned</dt>
          <dd data-testid="count-unassigned">{counts.unassigned}</dd>
        </div>
      </dl>
      {counts.conflicts > 0 ? (
        <Callout tone="warning" as="p">
          <AlertTriangle aria-hidden="true" size={20} /> {counts.conflicts}{' '}
          {counts.conflicts === 1 ? 'casualty was' : 'casualties were'} triaged differently by two
          responders. Open it and re-triage to settle the colour.
        </Callout>
      ) : null}
    </section>
  );
}

export function CasualtyList({
  board,
  selected,
  onSelect,
}: {
  board: IncidentBoard;
  selected?: string | null;
  onSelect?: (id: string) => void;
}) {
  const [sort, setSort] = useState<BoardSort>('priority');
  const rows = useMemo(() => sortBoard(board.rows, sort), [board.rows, sort]);
  const scale: TriageScale = board.incident.triageScale ?? 'START';
  if (board.rows.length === 0)
    return <p className={styles.empty}>No casualties yet. Tag the first one above.</p>;
  return (
    <section aria-label="Casualties">
      <div className={styles.sortRow}>
        <label htmlFor="mci-sort" className="field__label">
          Sort by
        </label>
        <select
          id="mci-sort"
          className={cx('input', styles.sortSelect)}
          value={sort}
          onChange={(e) => setSort(e.target.value as BoardSort)}
        >
          <option value="priority">Priority</option>
          <option value="status">Status (on scene first)</option>
          <option value="tag">Tag number</option>
        </select>
      </div>
      <ul className={styles.casualtyList} data-testid="casualty-list">
        {rows.map((row) => (
          <li key={row.casualty.id}>
            <CasualtyRowView
              row={row}
              scale={scale}
              selected={selected === row.casualty.id}
              onSelect={onSelect}
            />
          </li>
        ))}
      </ul>
    </section>
  );
}

function CasualtyRowView({
  row,
  scale,
  selected,
  onSelect,
}: {
  row: BoardRow;
  scale: TriageScale;
  selected: boolean;
  onSelect: ((id: string) => void) | undefined;
}) {
  const content = (
    <>
      <span className={styles.tag}>{row.tag}</span>
      <ColourChip colour={row.colour} scale={scale} />
      <span className={styles.rowText}>
        {row.casualty.description ?? ''}
        {row.casualty.location ? ` · ${row.casualty.location}` : ''}
      </span>
      <span className={styles.rowStatus}>
        {row.transported
          ? `Transported${row.casualty.transportDestination ? ` to ${row.casualty.transportDestination}` : ''}`
          : row.assignedTo
            ? `With ${row.assignedTo}`
            : 'Unassigned'}
        {row.triage.conflict ? (
          <span className={styles.conflictMark}>
            <AlertTriangle aria-hidden="true" size={16} /> Conflict
          </span>
        ) : null}
      </span>
    </>
  );
  if (!onSelect) return <div className={styles.casualtyRow}>{content}</div>;
  return (
    <button
      type="button"
      className={cx(styles.casualtyRow, selected && styles.selectedRow)}
      aria-expanded={selected}
      onClick={() => onSelect(row.casualty.id)}
    >
      {content}
    </button>
  );
}

export function Responders({ board }: { board: IncidentBoard }) {
  return (
    <section aria-label="Responders" className={styles.responders}>
      <h2 className="section-title">Responders</h2>
      <ul>
        {board.responders.map((r) => (
          <li key={r.userId}>
            <strong>{r.name || `Responder #${String(r.userId)}`}</strong>{' '}
            <span className={styles.muted}>
              {r.casualties} tagged · last synced{' '}
              {r.lastSync ? formatDateTime(r.lastSync) : 'not yet'}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Tag + colour: the suggested tag is ready, so one tap on a colour adds the casualty. */
function QuickTag({ board, canTriage }: { board: IncidentBoard; canTriage: boolean }) {
  const { data: user } = useUser();
  const scale: TriageScale = board.incident.triageScale ?? 'START';
  const prefix = user?.callSign?.trim() || `R${String(user?.id ?? 0)}`;
  const suggested = suggestTag(
    board.rows.map((r) => r.tag),
    prefix,
  );
  const [tag, setTag] = useState<string | null>(null);
  const [assistant, setAssistant] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [added, setAdded] = useState<string | null>(null);
  const shownTag = tag ?? suggested;
  const add = (triage: TriageInput) => {
    const chosen = shownTag.trim();
    if (!chosen) {
      setProblem('Enter a tag number.');
      return;
    }
    setProblem(null);
    addCasualty(board.incident.id, chosen, triage).then(
      () => {
        setAdded(`Casualty ${chosen} tagged ${triage.colour}.`);
        // Back to the suggestion, unless the responder has typed the next tag meanwhile.
        setTag((current) => (current === null || current.trim() === chosen ? null : current));
        setAssistant(false);
      },
      (error: unknown) => setProblem(error instanceof Error ? error.message : String(error)),
    );
  };
  if (!canTriage) return null;
  return (
    <section aria-label="Tag a casualty" className={styles.quickTag}>
      <h2 className="section-title">Tag a casualty</h2>
      <div className="field">
        <label htmlFor="mci-tag" className="field__label">
          Tag number
        </label>
        <input
          id="mci-tag"
          className="input"
          value={shownTag}
          autoComplete="off"
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? 'mci-tag-error' : undefined}
          onChange={(e) => setTag(e.target.value)}
        />
        {problem ? (
          <p id="mci-tag-error" className="field__error" role="alert">
            {problem}
          </p>
        ) : null}
      </div>
      {assistant ? (
        <TriageAssistant scale={scale} onDone={add} onCancel={() => setAssistant(false)} />
      ) : (
        <>
          <ColourButtons
            scale={scale}
            legend="Colour (one tap adds the casualty)"
            onPick={(colour) => add({ colour, method: 'tag' })}
          />
          {scale === 'START' ? (
            <button
              type="button"
              className="button button--secondary button--block"
              onClick={() => setAssistant(true)}
            >
              Triage with START / JumpSTART
            </button>
          ) : null}
        </>
      )}
      <p role="status" className={styles.status}>
        {added}
      </p>
    </section>
  );
}

export function CommandBoard({
  board,
  canTriage,
  canClose,
}: {
  board: IncidentBoard;
  canTriage: boolean;
  canClose: boolean;
}) {
  const { incident } = board;
  const closed = isIncidentClosed(incident);
  // While the board of a running incident is open, other responders' changes arrive within
  // seconds (a short poll of pull).
  useLiveSync(!closed);
  const [selected, setSelected] = useState<string | null>(null);
  const [confirmClose, setConfirmClose] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const selectedRow = board.rows.find((r) => r.casualty.id === selected) ?? null;
  return (
    <div className={styles.board}>
      <div className={styles.boardHead}>
        <h2 className={styles.incidentTitle}>
          Incident {incident.incidentId}
          {incident.incidentType ? `: ${incident.incidentType}` : ''}
        </h2>
        <IncidentClock board={board} />
        {closed ? (
          <Callout tone="info" as="p">
            This incident is closed: it is kept as it ended and can no longer be changed.
          </Callout>
        ) : null}
      </div>
      <BoardCounts board={board} />
      {!closed ? <QuickTag board={board} canTriage={canTriage} /> : null}
      <CasualtyList
        board={board}
        selected={selected}
        onSelect={(id) => setSelected(selected === id ? null : id)}
      />
      {selectedRow ? (
        <CasualtyPanel
          key={selectedRow.casualty.id}
          row={selectedRow}
          board={board}
          canTriage={canTriage && !closed}
          onClose={() => setSelected(null)}
        />
      ) : null}
      <Responders board={board} />
      <details className={styles.methane} open={!closed}>
        <summary className={styles.summary}>METHANE report</summary>
        <MethaneReport incident={incident} counts={board.counts} />
        {!closed && canClose ? <MethaneForm incident={incident} /> : null}
      </details>
      {!closed && canClose ? (
        <>
          <button
            type="button"
            className="button button--danger button--block"
            onClick={() => setConfirmClose(true)}
          >
            Close incident
          </button>
          {problem ? (
            <p className="field__error" role="alert">
              {problem}
            </p>
          ) : null}
          <ConfirmDialog
            open={confirmClose}
            onOpenChange={setConfirmClose}
            title="Close this incident?"
            description="The end time is now. A closed incident is locked: no casualties can be added or changed."
            confirmLabel="Close incident"
            destructive
            onConfirm={() => {
              setConfirmClose(false);
              closeIncident(incident.id).catch((error: unknown) =>
                setProblem(error instanceof Error ? error.message : String(error)),
              );
            }}
          />
        </>
      ) : null}
    </div>
  );
}
