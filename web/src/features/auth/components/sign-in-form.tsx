import type { LoginInput } from '@rescuelog/sync-protocol/accounts/users';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useForm, type Resolver } from 'react-hook-form';
import { TextField } from '@/components/ui/field';
import { errorMessage, parseErrorBody, sendJson } from '@/lib/api-client';
import { setCurrentUser } from '@/lib/auth';
import { toast } from '@/lib/toast-store';
import styles from './sign-in-form.module.css';

// zod and the schemas load with the first validation (typing or submitting), not before the
// form is on screen; the rules are the same loginSchema's.
const loadValidation = () => import('./sign-in-validation');
const signInResolver: Resolver<LoginInput> = async (values, context, options) =>
  (await loadValidation()).signInResolver(values, context, options);

/** '45 seconds', '1 minute 5 seconds', '15 minutes'. */
function formatWait(totalSeconds: number): string {
  const minutes = Math.floor(totalSeconds / 60);
  const seconds = totalSeconds % 60;
  const part = (n: number, unit: string) => `${String(n)} ${unit}${n === 1 ? '' : 's'}`;
  if (minutes === 0) return part(seconds, 'second');
  return seconds === 0
    ? part(minutes, 'minute')
    : `${part(minutes, 'minute')} ${part(seconds, 'second')}`;
}

/**
 * A countdown for the wait the server asks for after too many failed sign-ins (RATE_LIMITED
 * with retryAfterSeconds, decision 022): seconds left (0: none), ticking once a second.
 */
function useCountdown(): [number, (seconds: number) => void] {
  const [until, setUntil] = useState<number | null>(null);
  const [now, setNow] = useState(0);
  useEffect(() => {
    if (until === null) return;
    const timer = setInterval(() => {
      const current = Date.now();
      setNow(current);
      if (current >= until) setUntil(null);
    }, 1000);
    return () => clearInterval(timer);
  }, [until]);
  const start = (seconds: number) => {
    const current = Date.now();
    setNow(current);
    setUntil(current + seconds * 1000);
  };
  return [until === null ? 0 : Math.max(0, Math.ceil((until - now) / 1000)), start];
}

export function SignInForm() {
  const queryClient = useQueryClient();
  const [secondsLeft, startWait] = useCountdown();
  const form = useForm<LoginInput>({
    resolver: signInResolver,
    defaultValues: { email: '', password: '' },
  });
  const login = useMutation({
    mutationFn: (values: LoginInput) =>
      sendJson(
        'POST',
        '/api/login',
        () => loadValidation().then((m) => m.currentUserResponseSchema),
        values,
      ),
    onSuccess: ({ user }) => {
      toast({ title: 'Login successful', description: 'Welcome back!' });
      setCurrentUser(queryClient, user);
    },
    onError: (error) => {
      const body = parseErrorBody(error);
      // ErrorCode.RATE_LIMITED, by value: the errors module would bring zod into this chunk.
      if (body?.code === 'RATE_LIMITED' && body.retryAfterSeconds !== undefined)
        startWait(body.retryAfterSeconds);
      toast({
        title: 'Login failed',
        description: errorMessage(error) || 'Invalid email or password',
        variant: 'destructive',
      });
    },
  });
  const { errors } = form.formState;
  return (
    <form
      className="form"
      noValidate
      onSubmit={form.handleSubmit((values) => login.mutate(values))}
    >
      <TextField
        label="Email"
        type="email"
        autoComplete="email"
        inputMode="email"
        required
        error={errors.email?.message}
        {...form.register('email')}
      />
      <TextField
        label="Password"
        type="password"
        autoComplete="current-password"
        required
        error={errors.password?.message}
        {...form.register('password')}
      />
      {secondsLeft > 0 ? (
        <p className={styles.wait} role="alert">
          Too many failed sign-in attempts. You can try again in {formatWait(secondsLeft)}.
        </p>
      ) : null}
      <button
        type="submit"
        className="button button--primary button--block"
        disabled={login.isPending || secondsLeft > 0}
      >
        {login.isPending ? 'Signing in...' : 'Sign In'}
      </button>
    </form>
  );
}
