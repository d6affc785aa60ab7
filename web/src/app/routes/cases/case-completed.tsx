// /case-completed/{caseId}: step 6, the whole record, completion, handover, addenda and export.
// A case this device does not hold is fetched from the server (online only).
import { useParams } from 'react-router-dom';
import { CaseStepLayout } from '@/features/cases/components/case-step-layout';
import { DeviceCase, ServerCase } from '@/features/cases/completed/completed-case';
import { useCaseByCaseId } from '@/features/cases/data/use-case';

export function CaseCompletedRoute() {
  const { caseId } = useParams();
  const lookup = useCaseByCaseId(caseId);
  return (
    <CaseStepLayout
      step="case-completed"
      lookup={lookup}
      missing={(id) => <ServerCase caseId={id} />}
    >
      {(record) => <DeviceCase record={record} />}
    </CaseStepLayout>
  );
}
