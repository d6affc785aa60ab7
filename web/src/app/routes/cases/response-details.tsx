// /response-details/{caseId}: step 5 of a case, times, transport and refusal of transport.
import { useParams } from 'react-router-dom';
import { CaseStepLayout } from '@/features/cases/components/case-step-layout';
import { useCaseByCaseId } from '@/features/cases/data/use-case';
import { ResponseDetailsForm } from '@/features/cases/response-details/response-details-form';

export function ResponseDetailsRoute() {
  const { caseId } = useParams();
  const lookup = useCaseByCaseId(caseId);
  return (
    <CaseStepLayout step="response-details" lookup={lookup}>
      {(record) => <ResponseDetailsForm caseId={record.caseId} />}
    </CaseStepLayout>
  );
}
