import { useParams } from 'react-router-dom';
import { CaseStepLayout } from '@/features/cases/components/case-step-layout';
import { useCaseByCaseId } from '@/features/cases/data/use-case';
import { PrimarySurveyForm } from '@/features/cases/primary-survey/primary-survey-form';

export function PrimarySurveyRoute() {
  const { caseId } = useParams();
  const lookup = useCaseByCaseId(caseId);
  return (
    <CaseStepLayout step="primary-survey" lookup={lookup}>
      {() => <PrimarySurveyForm />}
    </CaseStepLayout>
  );
}
