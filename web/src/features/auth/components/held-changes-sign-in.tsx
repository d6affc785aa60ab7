// The sign-in screen while a user's unsynced changes are held on this device (decision 023):
// only a sign-in prompt that says whose changes they are. Nothing of the changes is shown;
// that user signing in opens their database and syncs it, anyone else signing in gets their
// own database and leaves the held one untouched.
import type { HeldUser } from '@rescuelog/sync-protocol/client/active-user';
import { LockKeyhole } from 'lucide-react';
import { StatusPage } from '@/components/ui/status-page';
import { SignInForm } from './sign-in-form';

function changes(count: number): string {
  return `${String(count)} unsynced ${count === 1 ? 'change' : 'changes'}`;
}

export function HeldChangesSignIn({ held }: { held: readonly HeldUser[] }) {
  return (
    <StatusPage
      icon={<LockKeyhole size={40} />}
      title="Unsynced changes are locked on this device"
      tone="warning"
      actions={<SignInForm />}
    >
      {held.map((h) => (
        <p key={h.userId}>
          <strong>{h.name}</strong> has {changes(h.pending)} here. Sign in as {h.name} to send them
          to the server.
        </p>
      ))}
      <p>The session ended before they could sync. They stay locked until then.</p>
    </StatusPage>
  );
}
