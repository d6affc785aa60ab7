import { lazy, Suspense, type ComponentType } from 'react';
import { Outlet, useRoutes, type RouteObject } from 'react-router-dom';
import { PageSpinner } from '@/components/ui/spinner';
import { SyncShell } from '@/features/sync-status/components/sync-shell';
import { useAfterFirstLoad } from '@/hooks/use-after-first-load';
import { useUser } from '@/lib/auth';
import { applyStoredSettings, ServiceSettingsSync } from '@/lib/service-settings';
import { GuestOnly, RequireAdministrator, RequireApprovedUser } from './guards';

function lazyNamed<K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K) {
  return lazy(async () => ({ default: (await load())[name] }));
}

const AuthRoute = lazyNamed(() => import('./routes/auth'), 'AuthRoute');
const DashboardRoute = lazyNamed(() => import('./routes/dashboard'), 'DashboardRoute');
const AdminUsersRoute = lazyNamed(() => import('./routes/admin/users'), 'AdminUsersRoute');
const AdminConflictsRoute = lazyNamed(
  () => import('./routes/admin/conflicts'),
  'AdminConflictsRoute',
);
const AdminRolesRoute = lazyNamed(() => import('./routes/admin/roles'), 'AdminRolesRoute');
const AdminNotificationsRoute = lazyNamed(
  () => import('./routes/admin/notifications'),
  'AdminNotificationsRoute',
);
const NotificationsBackground = lazy(async () => ({
  default: (await import('@/features/notifications/components/notifications-background'))
    .NotificationsBackground,
}));
const ProfileRoute = lazyNamed(() => import('./routes/profile'), 'ProfileRoute');
const SystemSettingsRoute = lazyNamed(
  () => import('./routes/system-settings'),
  'SystemSettingsRoute',
);

// Times show in the zone this device last heard from the server, from the first render on.
applyStoredSettings();
const NotFoundRoute = lazyNamed(() => import('./routes/not-found'), 'NotFoundRoute');
const SyncInboxRoute = lazyNamed(
  () => import('@/features/sync-status/components/sync-inbox'),
  'SyncInbox',
);
const PatientDetailsRoute = lazyNamed(
  () => import('./routes/cases/patient-details'),
  'PatientDetailsRoute',
);
const PrimarySurveyRoute = lazyNamed(
  () => import('./routes/cases/primary-survey'),
  'PrimarySurveyRoute',
);
const SecondarySurveyRoute = lazyNamed(
  () => import('./routes/cases/secondary-survey'),
  'SecondarySurveyRoute',
);
const TreatmentProvidedRoute = lazyNamed(
  () => import('./routes/cases/treatment-provided'),
  'TreatmentProvidedRoute',
);
const ResponseDetailsRoute = lazyNamed(
  () => import('./routes/cases/response-details'),
  'ResponseDetailsRoute',
);
const CaseCompletedRoute = lazyNamed(
  () => import('./routes/cases/case-completed'),
  'CaseCompletedRoute',
);
const CaseSearchRoute = lazyNamed(() => import('./routes/cases/case-search'), 'CaseSearchRoute');
const ProtocolsRoute = lazyNamed(() => import('./routes/protocols'), 'ProtocolsRoute');
const InternalProtocolsRoute = lazyNamed(
  () => import('./routes/internal-protocols'),
  'InternalProtocolsRoute',
);
const InternalProtocolRoute = lazyNamed(
  () => import('./routes/internal-protocols'),
  'InternalProtocolRoute',
);
const NewInternalProtocolRoute = lazyNamed(
  () => import('./routes/internal-protocols'),
  'NewInternalProtocolRoute',
);
const EditInternalProtocolRoute = lazyNamed(
  () => import('./routes/internal-protocols'),
  'EditInternalProtocolRoute',
);
const CprLoggerRoute = lazyNamed(() => import('./routes/cpr/cpr-logger'), 'CprLoggerRoute');
const CprLogsRoute = lazyNamed(() => import('./routes/cpr/cpr-logs'), 'CprLogsRoute');
const InventoryRoute = lazyNamed(() => import('./routes/inventory'), 'InventoryRoute');
const NewInventoryItemRoute = lazyNamed(
  () => import('./routes/inventory'),
  'NewInventoryItemRoute',
);
const InventoryItemRoute = lazyNamed(() => import('./routes/inventory'), 'InventoryItemRoute');
const MultiPatientRoute = lazyNamed(
  () => import('./routes/mci/multi-patient'),
  'MultiPatientRoute',
);
const MultiPatientLogsRoute = lazyNamed(
  () => import('./routes/mci/multi-patient-logs'),
  'MultiPatientLogsRoute',
);
const IncidentRecordRoute = lazyNamed(
  () => import('./routes/mci/multi-patient-logs'),
  'IncidentRecordRoute',
);
const IncidentReportsRoute = lazyNamed(
  () => import('./routes/incident-reports'),
  'IncidentReportsHome',
);
const NewIncidentReportRoute = lazyNamed(
  () => import('./routes/incident-reports'),
  'NewIncidentReport',
);
const IncidentReportRoute = lazyNamed(
  () => import('./routes/incident-reports'),
  'IncidentReportView',
);
const IncidentReportListRoute = lazyNamed(
  () => import('./routes/incident-reports'),
  'IncidentReportList',
);
const HelpRoute = lazyNamed(() => import('./routes/help'), 'HelpRoute');

/** For an approved user, once the first screen is up: pushes refresh the bell at once, and
 * this device's push subscription is kept registered (issue 16). */
function SignedInBackground() {
  const { data: user } = useUser();
  const afterLoad = useAfterFirstLoad();
  if (!afterLoad || user?.status !== 'approved') return null;
  return (
    <Suspense fallback={null}>
      <NotificationsBackground key={user.id} userId={user.id} />
    </Suspense>
  );
}

function RootLayout() {
  return (
    <>
      {/* Sync session and status bar (issue 4); the sync code itself loads lazily. */}
      <SyncShell />
      <ServiceSettingsSync />
      <SignedInBackground />
      <Suspense fallback={<PageSpinner />}>
        <Outlet />
      </Suspense>
    </>
  );
}

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      { element: <GuestOnly />, children: [{ path: '/auth', element: <AuthRoute /> }] },
      {
        element: <RequireApprovedUser />,
        children: [
          { path: '/', element: <DashboardRoute /> },
          { path: '/sync-inbox', element: <SyncInboxRoute /> },
          // Patient case documentation (issue 5): the capture steps, the completed case, search.
          { path: '/patient-details/:caseId?', element: <PatientDetailsRoute /> },
          { path: '/primary-survey/:caseId', element: <PrimarySurveyRoute /> },
          { path: '/secondary-survey/:caseId', element: <SecondarySurveyRoute /> },
          { path: '/treatment-provided/:caseId', element: <TreatmentProvidedRoute /> },
          { path: '/response-details/:caseId', element: <ResponseDetailsRoute /> },
          { path: '/case-completed/:caseId', element: <CaseCompletedRoute /> },
          { path: '/case-search', element: <CaseSearchRoute /> },
          // CPR logger and CPR logs (issue 39).
          { path: '/cpr-logger/:sessionId?', element: <CprLoggerRoute /> },
          { path: '/cpr-logs/:sessionId?', element: <CprLogsRoute /> },
          { path: '/profile', element: <ProfileRoute /> },
          // Reference library (issue 42): first aid protocols read aloud.
          { path: '/protocols/:category?', element: <ProtocolsRoute /> },
          // Internal SOPs: synced records, readable offline (decision 080).
          { path: '/internal-protocols', element: <InternalProtocolsRoute /> },
          { path: '/internal-protocols/new', element: <NewInternalProtocolRoute /> },
          { path: '/internal-protocols/:sopId', element: <InternalProtocolRoute /> },
          { path: '/internal-protocols/:sopId/edit', element: <EditInternalProtocolRoute /> },
          // Medical inventory (issue 38).
          { path: '/medical-inventory', element: <InventoryRoute /> },
          { path: '/medical-inventory/new', element: <NewInventoryItemRoute /> },
          { path: '/medical-inventory/:itemId', element: <InventoryItemRoute /> },
          // Mass-casualty incident command and its logs (issue 40).
          { path: '/multi-patient/:incidentId?', element: <MultiPatientRoute /> },
          { path: '/multi-patient-logs', element: <MultiPatientLogsRoute /> },
          { path: '/multi-patient-logs/:incidentId', element: <IncidentRecordRoute /> },
          // Incident reports (issue 41).
          { path: '/incident-reports', element: <IncidentReportsRoute /> },
          { path: '/incident-reports/list', element: <IncidentReportListRoute /> },
          { path: '/incident-reports/new/:type', element: <NewIncidentReportRoute /> },
          { path: '/incident-reports/report/:id', element: <IncidentReportRoute /> },
          { path: '/help', element: <HelpRoute /> },
          {
            element: <RequireAdministrator />,
            children: [
              { path: '/admin/users', element: <AdminUsersRoute /> },
              { path: '/admin/conflicts', element: <AdminConflictsRoute /> },
              { path: '/admin/roles', element: <AdminRolesRoute /> },
              { path: '/admin/notifications', element: <AdminNotificationsRoute /> },
              { path: '/system-settings', element: <SystemSettingsRoute /> },
            ],
          },
        ],
      },
      { path: '*', element: <NotFoundRoute /> },
    ],
  },
];

/** Declarative mode (BrowserRouter + useRoutes): the data-router runtime would add ~18 KB
 * gzipped to the first render and the app uses none of loaders, actions or fetchers. */
export function AppRoutes() {
  return useRoutes(routes);
}
