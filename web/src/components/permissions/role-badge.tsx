import type { User } from '@rescuelog/sync-protocol/accounts/users';

/**
 * The user's role as people know it: the display name of the role they were given
 * ("Responder"), or, for an account with no role, its account role. The header and User
 * Management both show this one badge.
 */
export function RoleBadge({ user }: { user: Pick<User, 'role' | 'roleName'> }) {
  const isAdmin = user.role === 'administrator';
  const name = user.roleName ?? (isAdmin ? 'Administrator' : 'Member');
  return <span className={`badge ${isAdmin ? 'badge--admin' : 'badge--member'}`}>{name}</span>;
}
