import { USER_STATUSES } from '@rescuelog/sync-protocol/accounts/users';
import { ShieldCheck } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { PageHeader } from '@/components/ui/page-header';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-client';
import { useUser } from '@/lib/auth';
import { useAdminUsers, type StatusFilter } from '../api/admin-users';
import { UserCard } from './user-card';
import { cx } from '@/lib/cx';
import styles from './admin-users-page.module.css';

const FILTERS: ReadonlyArray<{ value: StatusFilter; label: string }> = [
  ...USER_STATUSES.map((s) => ({ value: s, label: s[0]?.toUpperCase() + s.slice(1) })),
  { value: 'all', label: 'All' },
];

export function AdminUsersPage() {
  const [filter, setFilter] = useState<StatusFilter>('pending');
  const { data: me } = useUser();
  const users = useAdminUsers(filter);
  return (
    <>
      <PageHeader
        title="User Management"
        actions={
          <Link to="/admin/roles" className="button button--secondary">
            <ShieldCheck aria-hidden="true" size={20} /> Roles
          </Link>
        }
      />
      <main className="page">
        <fieldset className={styles.segmented}>
          <legend className="sr-only">Show users</legend>
          {FILTERS.map((f) => (
            <label key={f.value} className={cx(styles.option, filter === f.value && styles.active)}>
              <input
                type="radio"
                name="status-filter"
                value={f.value}
                checked={filter === f.value}
                onChange={() => setFilter(f.value)}
              />
              {f.label}
            </label>
          ))}
        </fieldset>
        <section aria-label="Users" aria-busy={users.isFetching}>
          {users.isPending ? (
            <Spinner label="Loading users" />
          ) : users.isError ? (
            <p className="text-danger">Users could not be loaded ({errorMessage(users.error)}).</p>
          ) : users.data.length === 0 ? (
            <p className="empty-state">
              {filter === 'pending' ? 'No users waiting for approval' : 'No users'}
            </p>
          ) : (
            <ul className={styles.list}>
              {users.data.map((u) => (
                <UserCard key={u.id} user={u} isSelf={u.id === me?.id} />
              ))}
            </ul>
          )}
        </section>
      </main>
    </>
  );
}
