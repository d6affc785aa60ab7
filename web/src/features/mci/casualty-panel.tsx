// One casualty opened on the board: re-triage (a new row on top of what this device shows,
// never an overwrite), a disagreement between responders shown until settled, who treats
// them and where, transport, the link to a full patient case (made here, prefilled), and
// every triage so far.
import { stepPath } from '@rescuelog/sync-protocol/cases/steps';
import { colourLabel, type TriageScale } from '@rescuelog/sync-protocol/mci/triage';
import { formatDateTime } from '@rescuelog/sync-protocol/time';
import { AlertTriangle } from 'lucide-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { Callout } from '@/components/ui/callout';
import { useUser } from '@/lib/auth';
import { useLocalRecord } from '@/lib/sync/use-local-records';
import { ColourButtons, ColourChip } from './colour-buttons';
import { createCaseFromCasualty, retriage, updateCasualty, type TriageInput } from './mci-writes';
import { TriageAssistant } from './triage-assistant';
import type { BoardRow, IncidentBoard } from './use-incident-board';
import styles from './mci.module.css';

type TextField = 'description' | 'location' | 'assignedTo' | 'ambulance' | 'transportDestination';

function CasualtyText({
  row,
  field,
  label,
  disabled,
  onProblem,
}: {
  row: BoardRow;
  field: TextField;
  label: string;
  disabled: boolean;
  onProblem: (message: string) => void;
}) {
  const stored = row.casualty[field] ?? '';
  const [draft, setDraft] = useState<string | null>(null);
  const id = `casualty-${field}`;
  return (
    <div className="field">
      <label htmlFor={id} className="field__label">
        {label}
      </label>
      <input
        id={id}
        className="input"
        value={draft ?? stored}
        disabled={disabled}
        autoComplete="off"
        onChange={(e) => setDraft(e.target.value)}
        onBlur={() => {
          if (draft === null || draft === stored) return;
          const value = draft.trim() === '' ? null : draft.trim();
          updateCasualty(row.casualty, { [field]: value }).then(
            () => setDraft(null),
            (error: unknown) => onProblem(error instanceof Error ? error.message : String(error)),
          );
        }}
      />
    </div>
  );
}

export function TriageHistory({ row, scale }: { row: BoardRow; scale: TriageScale }) {
  if (row.triage.history.length === 0) return null;
  return (
    <ol className={styles.history} aria-label={`Triage history of ${row.tag}`}>
      {row.triage.history.map((t) => (
        <li key={t.id}>
          <ColourChip colour={t.colour} scale={scale} /> {formatDateTime(t.triagedAt)}
          {t.responderName ? ` by ${t.responderName}` : ''}
          {t.method && t.method !== 'tag' ? ` (${t.method}` : ''}
          {t.method && t.method !== 'tag' && t.proposedColour && t.proposedColour !== t.colour
            ? `, proposed ${t.proposedColour}: overridden)`
            : t.method && t.method !== 'tag'
              ? ')'
              : ''}
        </li>
      ))}
    </ol>
  );
}

function LinkedCase({ caseId }: { caseId: string }) {
  const linked = useLocalRecord('case', caseId);
  if (linked === undefined) return null;
  if (linked === null || !linked.caseId)
    return <p className={styles.muted}>Linked to a patient case not stored on this device.</p>;
  return (
    <p>
      Patient case <Link to={stepPath('patient-details', linked.caseId)}>{linked.caseId}</Link>
    </p>
  );
}

export function CasualtyPanel({
  row,
  board,
  canTriage,
  onClose,
}: {
  row: BoardRow;
  board: IncidentBoard;
  canTriage: boolean;
  onClose: () => void;
}) {
  const scale: TriageScale = board.incident.triageScale ?? 'START';
  const { data: user } = useUser();
  const navigate = useNavigate();
  const [assistant, setAssistant] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const { casualty } = row;
  const heads = row.triage.heads.map((h) => h.id);
  const fail = (error: unknown) =>
    setProblem(error instanceof Error ? error.message : String(error));
  const doRetriage = (triage: TriageInput) => {
    setAssistant(false);
    retriage(board.incident.id, casualty.id, heads, triage).catch(fail);
  };

  return (
    <section className={styles.panel} aria-label={`Casualty ${row.tag}`}>
      <div className={styles.panelHead}>
        <h2 className="section-title">
          Casualty {row.tag} <ColourChip colour={row.colour} scale={scale} />
        </h2>
        <button type="button" className="button button--secondary" onClick={onClose}>
          Done
        </button>
      </div>
      {row.triage.conflict ? (
        <Callout tone="warning">
          <AlertTriangle aria-hidden="true" size={20} />
          <span>
            Triaged differently:{' '}
            {row.triage.heads
              .map(
                (h) =>
                  `${h.colour} (${colourLabel(h.colour, scale)})${h.responderName ? ` by ${h.responderName}` : ''}`,
              )
              .join(' and ')}
            . Re-triage to settle it.
          </span>
        </Callout>
      ) : null}
      {canTriage ? (
        assistant ? (
          <TriageAssistant scale={scale} onDone={doRetriage} onCancel={() => setAssistant(false)} />
        ) : (
          <>
            <ColourButtons
              scale={scale}
              legend="Re-triage"
              onPick={(colour) => doRetriage({ colour, method: 'tag' })}
            />
            {scale === 'START' ? (
              <button
                type="button"
                className="button button--secondary button--block"
                onClick={() => setAssistant(true)}
              >
                Re-triage with START / JumpSTART
              </button>
            ) : null}
          </>
        )
      ) : null}
      <CasualtyText
        row={row}
        field="description"
        label="Short description"
        disabled={!canTriage}
        onProblem={setProblem}
      />
      <CasualtyText
        row={row}
        field="location"
        label="Location on scene"
        disabled={!canTriage}
        onProblem={setProblem}
      />
      <CasualtyText
        row={row}
        field="assignedTo"
        label="Assigned responder"
        disabled={!canTriage}
        onProblem={setProblem}
      />
      <fieldset className="fieldset">
        <legend className="fieldset__legend">Transport</legend>
        <CasualtyText
          row={row}
          field="ambulance"
          label="Ambulance"
          disabled={!canTriage}
          onProblem={setProblem}
        />
        <CasualtyText
          row={row}
          field="transportDestination"
          label="Destination hospital"
          disabled={!canTriage}
          onProblem={setProblem}
        />
        {row.transported ? (
          <p>Departed {formatDateTime(casualty.transportedAt)}</p>
        ) : canTriage ? (
          <button
            type="button"
            className="button button--primary button--block"
            onClick={() =>
              updateCasualty(casualty, {
                transported: true,
                transportedAt: new Date().toISOString(),
              }).catch(fail)
            }
          >
            Departed now
          </button>
        ) : null}
      </fieldset>
      {casualty.caseId ? (
        <LinkedCase caseId={casualty.caseId} />
      ) : canTriage && user ? (
        <button
          type="button"
          className="button button--secondary button--block"
          onClick={() =>
            createCaseFromCasualty(
              casualty,
              row.colour,
              board.incident,
              { fullName: user.fullName, callSign: user.callSign ?? null },
              casualty.description ?? null,
            ).then((caseNumber) => navigate(stepPath('patient-details', caseNumber)), fail)
          }
        >
          Open a patient case for {row.tag}
        </button>
      ) : null}
      {problem ? (
        <p className="field__error" role="alert">
          {problem}
        </p>
      ) : null}
      <h3 className={styles.subTitle}>Triage history</h3>
      <TriageHistory row={row} scale={scale} />
    </section>
  );
}
