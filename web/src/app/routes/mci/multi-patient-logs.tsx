// /multi-patient-logs and /multi-patient-logs/{id}: past incidents and one incident's record.
import { IncidentLogsPage, IncidentRecordPage } from '@/features/mci/incident-logs-page';

export function MultiPatientLogsRoute() {
  return <IncidentLogsPage />;
}

export function IncidentRecordRoute() {
  return <IncidentRecordPage />;
}
