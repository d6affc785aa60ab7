import { AdminConflictsPage } from '@/features/admin-conflicts/components/admin-conflicts-page';

export function AdminConflictsRoute() {
  return <AdminConflictsPage />;
}
