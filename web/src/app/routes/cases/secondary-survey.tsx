import { useParams } from 'react-router-dom';
import { CaseStepLayout } from '@/features/cases/components/case-step-layout';
import { useCaseByCaseId } from '@/features/cases/data/use-case';
import { SecondarySurveyForm } from '@/features/cases/secondary-survey/secondary-survey-form';

export function SecondarySurveyRoute() {
  const { caseId } = useParams();
  const lookup = useCaseByCaseId(caseId);
  return (
    <CaseStepLayout step="secondary-survey" lookup={lookup}>
      {() => <SecondarySurveyForm />}
    </CaseStepLayout>
  );
}
