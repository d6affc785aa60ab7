import {
  PROFILE_MESSAGES,
  passwordChangeSchema,
  type User,
} from '@rescuelog/sync-protocol/accounts/users';
import { useState, type FormEvent } from 'react';
import { TextField } from '@/components/ui/field';
import { errorMessage, parseErrorBody } from '@/lib/api-client';
import { toast } from '@/lib/toast-store';
import { useChangePassword, useUpdateProfile } from '../api/profile';

type Errors = Partial<Record<string, string>>;

function firstErrors(error: unknown): Errors {
  const body = parseErrorBody(error);
  const out: Errors = {};
  for (const [key, messages] of Object.entries(body?.fieldErrors ?? {})) out[key] = messages[0];
  if (Object.keys(out).length === 0) out.form = errorMessage(error);
  return out;
}

/** A new email address, confirmed with the current password (the server checks it too). */
export function EmailForm({ user }: { user: User }) {
  const [email, setEmail] = useState(user.email);
  const [currentPassword, setCurrentPassword] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const update = useUpdateProfile();
  function submit(e: FormEvent) {
    e.preventDefault();
    if (!currentPassword) {
      setErrors({ currentPassword: PROFILE_MESSAGES.currentPasswordRequired });
      return;
    }
    update.mutate(
      { email, currentPassword },
      {
        onSuccess: () => {
          setCurrentPassword('');
          setErrors({});
          toast({ title: 'Email address changed', description: email });
        },
        onError: (error) => setErrors(firstErrors(error)),
      },
    );
  }
  return (
    <form className="form" noValidate onSubmit={submit} aria-labelledby="email-title">
      <h2 id="email-title" className="card__title">
        Email address
      </h2>
      <TextField
        label="Email"
        type="email"
        autoComplete="email"
        value={email}
        onChange={(e) => setEmail(e.currentTarget.value)}
        error={errors.email}
      />
      <TextField
        label="Current password"
        type="password"
        autoComplete="current-password"
        value={currentPassword}
        onChange={(e) => setCurrentPassword(e.currentTarget.value)}
        error={errors.currentPassword}
      />
      {errors.form ? (
        <p className="field__error" role="alert">
          {errors.form}
        </p>
      ) : null}
      <button
        type="submit"
        className="button button--secondary"
        disabled={update.isPending || email.trim().toLowerCase() === user.email}
      >
        Change email
      </button>
    </form>
  );
}

/** Current password, a new one (at least 6 characters) twice; other devices are signed out. */
export function PasswordForm() {
  const [values, setValues] = useState({ currentPassword: '', newPassword: '', confirm: '' });
  const [errors, setErrors] = useState<Errors>({});
  const change = useChangePassword();
  function submit(e: FormEvent) {
    e.preventDefault();
    const parsed = passwordChangeSchema.safeParse({
      currentPassword: values.currentPassword,
      newPassword: values.newPassword,
    });
    const next: Errors = {};
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const key = String(issue.path[0] ?? 'form');
        next[key] ??= issue.message;
      }
    }
    if (!next.newPassword && values.newPassword !== values.confirm)
      next.confirm = PROFILE_MESSAGES.passwordsDiffer;
    setErrors(next);
    if (!parsed.success || next.confirm) return;
    change.mutate(parsed.data, {
      onSuccess: ({ endedSessions }) => {
        setValues({ currentPassword: '', newPassword: '', confirm: '' });
        toast({
          title: 'Password changed',
          description:
            endedSessions === 0
              ? 'You stay signed in on this device.'
              : `Signed out on ${String(endedSessions)} other ${endedSessions === 1 ? 'device' : 'devices'}.`,
        });
      },
      onError: (error) => setErrors(firstErrors(error)),
    });
  }
  const set = (key: keyof typeof values) => (e: { currentTarget: { value: string } }) => {
    const value = e.currentTarget.value;
    setValues((v) => ({ ...v, [key]: value }));
  };
  return (
    <form className="form" noValidate onSubmit={submit} aria-labelledby="password-title">
      <h2 id="password-title" className="card__title">
        Password
      </h2>
      <TextField
        label="Current password"
        type="password"
        autoComplete="current-password"
        value={values.currentPassword}
        onChange={set('currentPassword')}
        error={errors.currentPassword}
      />
      <TextField
        label="New password"
        type="password"
        autoComplete="new-password"
        value={values.newPassword}
        onChange={set('newPassword')}
        error={errors.newPassword}
        hint="At least 6 characters"
      />
      <TextField
        label="Repeat new password"
        type="password"
        autoComplete="new-password"
        value={values.confirm}
        onChange={set('confirm')}
        error={errors.confirm}
      />
      {errors.form ? (
        <p className="field__error" role="alert">
          {errors.form}
        </p>
      ) : null}
      <p className="form-note">Changing it signs you out on every other device.</p>
      <button type="submit" className="button button--secondary" disabled={change.isPending}>
        {change.isPending ? 'Changing...' : 'Change password'}
      </button>
    </form>
  );
}
