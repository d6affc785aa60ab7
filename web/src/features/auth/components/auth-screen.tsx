import * as Tabs from '@radix-ui/react-tabs';
import { ShieldPlus } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { PageSpinner, Spinner } from '@/components/ui/spinner';
import { useHeldUsers } from '@/lib/sync/use-held-users';
import { HeldChangesSignIn } from './held-changes-sign-in';
import { InstallAppButton } from './install-app-button';
import { SignInForm } from './sign-in-form';
import styles from './auth-screen.module.css';

// Most visits sign in; the registration form and its upload code load when the tab opens.
const RegisterForm = lazy(async () => ({
  default: (await import('./register-form')).RegisterForm,
}));

export function AuthScreen() {
  const [tab, setTab] = useState('sign-in');
  // A held user's changes lock the device to a sign-in prompt (decision 023).
  const held = useHeldUsers();
  if (held.isPending) return <PageSpinner label="Checking this device" />;
  if (held.data && held.data.length > 0) return <HeldChangesSignIn held={held.data} />;
  return (
    <main className="auth-page">
      <div className="auth-page__inner">
        <header className="auth-page__brand">
          <ShieldPlus aria-hidden="true" size={40} className="auth-page__logo" />
          <h1 className="auth-page__title">RescueLog</h1>
          <p className="auth-page__subtitle">
            Patient and incident records for rescue and medical responders
          </p>
        </header>
        <section className="card" aria-label="Sign in or register">
          <Tabs.Root value={tab} onValueChange={setTab} className="tabs">
            <Tabs.List className="tabs__list" aria-label="Account">
              <Tabs.Trigger value="sign-in" className="tabs__trigger">
                Sign In
              </Tabs.Trigger>
              <Tabs.Trigger value="register" className="tabs__trigger">
                Register
              </Tabs.Trigger>
            </Tabs.List>
            <Tabs.Content value="sign-in" className="tabs__content">
              <h2 className="sr-only">Sign In</h2>
              <SignInForm />
            </Tabs.Content>
            <Tabs.Content value="register" className="tabs__content">
              <h2 className="sr-only">Register</h2>
              <p className={styles.formNote}>
                Fields marked <span aria-hidden="true">*</span>
                <span className="sr-only">as required</span> are required. New accounts are reviewed
                by an administrator.
              </p>
              <Suspense fallback={<Spinner label="Loading registration form" />}>
                <RegisterForm onGoToSignIn={() => setTab('sign-in')} />
              </Suspense>
            </Tabs.Content>
          </Tabs.Root>
        </section>
        <InstallAppButton />
      </div>
    </main>
  );
}
