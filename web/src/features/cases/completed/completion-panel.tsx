// "Complete case" for a case still in progress: the completion check (the same rules the
// server runs again on case.complete) over what the device holds, each problem a link that
// opens its step with the field focused; with nothing left, a confirmation, then the case is
// completed and locked. Nothing here blocks saving a draft: every step saved as it went.
import { fieldDomId } from '@rescuelog/sync-protocol/cases/fields';
import {
  validateCaseForCompletion,
  type CompletionProblem,
} from '@rescuelog/sync-protocol/cases/completion';
import { CASE_STEPS, stepPath } from '@rescuelog/sync-protocol/cases/steps';
import { CompleteAndLock } from '@/components/record-form/complete-and-lock';
import { toast } from '@/lib/toast-store';
import { completeCase } from '../data/case-writes';
import type { LocalCase, LocalVitalSign } from '../data/use-case';

export function completionProblems(
  record: Partial<LocalCase>,
  vitals: readonly LocalVitalSign[],
): CompletionProblem[] {
  return validateCaseForCompletion(
    record,
    vitals.map((v) => ({
      type: v.type ?? '',
      voidedAt: v.voidedAt ?? null,
      deletedAt: v.deletedAt ?? null,
    })),
  );
}

/** Where a problem's link goes: its step, scrolled to and focusing the field. */
export function problemHref(problem: CompletionProblem, caseId: string): string {
  return `${stepPath(problem.step, caseId)}#${fieldDomId(problem.field)}`;
}

/** Complete and lock a case (the form kit's panel with the case's completion rule). */
export function CompletionPanel({
  record,
  vitals,
}: {
  record: LocalCase & { caseId: string };
  vitals: readonly LocalVitalSign[] | undefined;
}) {
  const problems = vitals === undefined ? null : completionProblems(record, vitals);
  return (
    <CompleteAndLock
      title="Complete case"
      note="Everything is saved on this device as you go, so the case can stay in progress and be finished later. Completing it locks the record; corrections after that are addenda with a reason."
      missing={
        problems === null
          ? null
          : problems.map((p) => ({
              key: p.field,
              group: p.step,
              message: p.message,
              href: problemHref(p, record.caseId),
            }))
      }
      groups={CASE_STEPS.map((s) => ({ key: s.key, title: s.title }))}
      confirmTitle="Complete and lock this case?"
      confirmDescription={`Case ${record.caseId} becomes read-only. Corrections after this are addenda: who, when, why, and each field before and after. The completion reaches the server when this device syncs.`}
      confirmLabel="Complete and lock"
      buttonLabel="Complete case"
      readyText="Everything needed to complete this case is recorded."
      errorText="Could not complete the case on this device"
      stillMissing={() => (vitals ? completionProblems(record, vitals).length : 1)}
      onComplete={async () => {
        await completeCase(record);
        toast({
          title: 'Case completed',
          description: `Case ${record.caseId} is locked. Corrections are added as addenda.`,
        });
      }}
    />
  );
}
