// Incident reports (issue 41): the home with type tiles, a new report of a type, a report,
// and the list.
export { IncidentReportsHome, NewIncidentReport } from '@/features/incident-reports/report-screens';
export { IncidentReportView } from '@/features/incident-reports/report-view';
export { IncidentReportList } from '@/features/incident-reports/report-list';
