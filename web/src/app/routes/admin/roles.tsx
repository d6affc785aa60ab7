import { AdminRolesPage } from '@/features/admin-roles/components/admin-roles-page';

export function AdminRolesRoute() {
  return <AdminRolesPage />;
}
