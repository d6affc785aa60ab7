import { AdminUsersPage } from '@/features/admin-users/components/admin-users-page';

export function AdminUsersRoute() {
  return <AdminUsersPage />;
}
