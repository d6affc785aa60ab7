// /treatment-provided/{caseId}: step 4 of a case, the interventions checklist and treatment notes.
import { useParams } from 'react-router-dom';
import { CaseStepLayout } from '@/features/cases/components/case-step-layout';
import { useCaseByCaseId } from '@/features/cases/data/use-case';
import { TreatmentStep } from '@/features/cases/treatment/treatment-step';

export function TreatmentProvidedRoute() {
  const { caseId } = useParams();
  const lookup = useCaseByCaseId(caseId);
  return (
    <CaseStepLayout step="treatment-provided" lookup={lookup}>
      {() => <TreatmentStep />}
    </CaseStepLayout>
  );
}
