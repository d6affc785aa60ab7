// /multi-patient and /multi-patient/{id}: mass-casualty incident command (issue 40).
import { MultiPatientPage } from '@/features/mci/multi-patient-page';

export function MultiPatientRoute() {
  return <MultiPatientPage />;
}
