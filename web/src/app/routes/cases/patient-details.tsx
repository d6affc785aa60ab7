// /patient-details starts a new case; /patient-details/{caseId} is step 1 of that case.
import { useParams } from 'react-router-dom';
import { CaseStepLayout } from '@/features/cases/components/case-step-layout';
import { useCaseByCaseId } from '@/features/cases/data/use-case';
import { NewCaseScreen } from '@/features/cases/patient-details/new-case';
import { PatientDetailsForm } from '@/features/cases/patient-details/patient-details-form';

function PatientDetailsStep({ caseId }: { caseId: string }) {
  const lookup = useCaseByCaseId(caseId);
  return (
    <CaseStepLayout step="patient-details" lookup={lookup}>
      {(record) => <PatientDetailsForm caseId={record.caseId} />}
    </CaseStepLayout>
  );
}

export function PatientDetailsRoute() {
  const { caseId } = useParams();
  return caseId ? <PatientDetailsStep key={caseId} caseId={caseId} /> : <NewCaseScreen />;
}
