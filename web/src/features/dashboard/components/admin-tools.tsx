import { GitCompare, Megaphone, Settings, UserCog } from 'lucide-react';
import { Link } from 'react-router-dom';
import { useConflictsToReview } from '@/lib/conflict-review';
import styles from './admin-tools.module.css';

export function AdminTools() {
  // Open conflicts are counted where those who settle them start (decision 015).
  const openConflicts = useConflictsToReview().data?.length;
  return (
    <section className="card" aria-labelledby="admin-tools-title">
      <h2 id="admin-tools-title" className="card__title">
        Administrator Tools
      </h2>
      <ul className={styles.tools}>
        <li>
          <Link to="/admin/users" className="button button--secondary button--block">
            <UserCog aria-hidden="true" size={22} /> User Management
          </Link>
        </li>
        <li>
          <Link to="/admin/conflicts" className="button button--secondary button--block">
            <GitCompare aria-hidden="true" size={22} /> Conflicts to review
            {openConflicts !== undefined && openConflicts > 0 ? (
              <span className="badge badge--admin">{String(openConflicts)} open</span>
            ) : null}
          </Link>
        </li>
        <li>
          <Link to="/admin/notifications" className="button button--secondary button--block">
            <Megaphone aria-hidden="true" size={22} /> Notifications
          </Link>
        </li>
        <li>
          <Link to="/system-settings" className="button button--secondary button--block">
            <Settings aria-hidden="true" size={22} /> System Settings
          </Link>
        </li>
      </ul>
    </section>
  );
}
