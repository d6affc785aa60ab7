// Who a notification reaches: everyone approved, the members of chosen roles, or chosen
// people (searched by name, email or call sign).
import type { Role } from '@rescuelog/sync-protocol/accounts/roles';
import type { User } from '@rescuelog/sync-protocol/accounts/users';
import { X } from 'lucide-react';
import { useId, useMemo, useState } from 'react';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-client';
import { useTargetRoles, useTargetUsers } from '../api/admin-notifications';
import type { Audience } from '../compose-input';
import styles from './admin-notifications.module.css';

/** People shown at once in the search list; typing narrows it. */
const USERS_SHOWN = 50;

const AUDIENCES: ReadonlyArray<{ value: Audience; label: string }> = [
  { value: 'everyone', label: 'Everyone' },
  { value: 'roles', label: 'Roles' },
  { value: 'users', label: 'Chosen people' },
];

export function userLabel(user: Pick<User, 'fullName' | 'email' | 'callSign'>): string {
  const name = user.fullName.trim() || user.email;
  return user.callSign ? `${name} (${user.callSign})` : name;
}

interface TargetPickerProps {
  audience: Audience;
  roles: string[];
  userIds: number[];
  error: string | undefined;
  disabled: boolean;
  onAudience: (audience: Audience) => void;
  onRoles: (roles: string[]) => void;
  onUserIds: (ids: number[]) => void;
}

function toggle<T>(list: T[], value: T, on: boolean): T[] {
  return on ? [...list.filter((v) => v !== value), value] : list.filter((v) => v !== value);
}

function RolePicker({
  chosen,
  onChange,
  disabled,
  describedBy,
}: {
  chosen: string[];
  onChange: (roles: string[]) => void;
  disabled: boolean;
  describedBy: string | undefined;
}) {
  const roles = useTargetRoles(true);
  if (roles.isPending) return <Spinner label="Loading roles" />;
  if (roles.isError)
    return <p className="text-danger">Roles could not be loaded ({errorMessage(roles.error)}).</p>;
  return (
    <fieldset className={styles.choices} aria-describedby={describedBy}>
      <legend className="field__label">Roles</legend>
      {roles.data.map((role: Role) => (
        <label key={role.id} className="choice">
          <input
            type="checkbox"
            checked={chosen.includes(role.name)}
            disabled={disabled}
            onChange={(e) => onChange(toggle(chosen, role.name, e.currentTarget.checked))}
          />
          {role.displayName}
        </label>
      ))}
    </fieldset>
  );
}

function UserPicker({
  chosen,
  onChange,
  disabled,
  describedBy,
}: {
  chosen: number[];
  onChange: (ids: number[]) => void;
  disabled: boolean;
  describedBy: string | undefined;
}) {
  const users = useTargetUsers(true);
  const [query, setQuery] = useState('');
  const searchId = useId();
  const matches = useMemo(() => {
    const all = users.data ?? [];
    const q = query.trim().toLowerCase();
    if (q === '') return all;
    return all.filter((u) =>
      [u.fullName, u.email, u.callSign ?? ''].some((text) => text.toLowerCase().includes(q)),
    );
  }, [users.data, query]);
  if (users.isPending) return <Spinner label="Loading people" />;
  if (users.isError)
    return <p className="text-danger">People could not be loaded ({errorMessage(users.error)}).</p>;
  const byId = new Map(users.data.map((u) => [u.id, u]));
  const shown = matches.slice(0, USERS_SHOWN);
  return (
    <div className={styles.people}>
      <div className="field">
        <label className="field__label" htmlFor={searchId}>
          Find people
        </label>
        <input
          id={searchId}
          type="search"
          className="input"
          value={query}
          disabled={disabled}
          placeholder="Name, email or call sign"
          onChange={(e) => setQuery(e.currentTarget.value)}
        />
      </div>
      <fieldset className={styles.peopleList} aria-describedby={describedBy}>
        <legend className="sr-only">People</legend>
        {shown.length === 0 ? (
          <p className="text-muted">No approved account matches “{query.trim()}”.</p>
        ) : (
          shown.map((u) => (
            <label key={u.id} className="choice">
              <input
                type="checkbox"
                checked={chosen.includes(u.id)}
                disabled={disabled}
                onChange={(e) => onChange(toggle(chosen, u.id, e.currentTarget.checked))}
              />
              <span>
                {userLabel(u)}
                <span className={styles.email}> {u.email}</span>
              </span>
            </label>
          ))
        )}
      </fieldset>
      {matches.length > shown.length ? (
        <p className="text-muted">
          Showing {shown.length} of {matches.length}; type to narrow the list.
        </p>
      ) : null}
      <div className={styles.chosen}>
        <p className="field__label">
          {chosen.length === 0
            ? 'Nobody chosen yet'
            : `${String(chosen.length)} ${chosen.length === 1 ? 'person' : 'people'} chosen`}
        </p>
        {chosen.length > 0 ? (
          <ul className={styles.chips}>
            {chosen.map((id) => {
              const u = byId.get(id);
              const name = u ? userLabel(u) : `Account ${String(id)}`;
              return (
                <li key={id}>
                  <button
                    type="button"
                    className={styles.chip}
                    disabled={disabled}
                    onClick={() => onChange(chosen.filter((c) => c !== id))}
                  >
                    {name}
                    <X aria-hidden="true" size={18} />
                    <span className="sr-only"> (remove)</span>
                  </button>
                </li>
              );
            })}
          </ul>
        ) : null}
      </div>
    </div>
  );
}

export function TargetPicker({
  audience,
  roles,
  userIds,
  error,
  disabled,
  onAudience,
  onRoles,
  onUserIds,
}: TargetPickerProps) {
  const errorId = useId();
  const describedBy = error ? errorId : undefined;
  return (
    <fieldset className="fieldset">
      <legend className="fieldset__legend">Send to</legend>
      <div className={styles.segmented}>
        {AUDIENCES.map((a) => (
          <label key={a.value} className={styles.segment}>
            <input
              type="radio"
              name="audience"
              value={a.value}
              checked={audience === a.value}
              disabled={disabled}
              onChange={() => onAudience(a.value)}
            />
            {a.label}
          </label>
        ))}
      </div>
      {audience === 'everyone' ? (
        <p className="text-muted">Every approved account, administrators included.</p>
      ) : audience === 'roles' ? (
        <RolePicker
          chosen={roles}
          onChange={onRoles}
          disabled={disabled}
          describedBy={describedBy}
        />
      ) : (
        <UserPicker
          chosen={userIds}
          onChange={onUserIds}
          disabled={disabled}
          describedBy={describedBy}
        />
      )}
      {error ? (
        <p className="field__error" id={errorId} role="alert">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
