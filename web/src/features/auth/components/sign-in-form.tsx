import type { LoginInput } from '@rescuelog/sync-protocol/users';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useForm, type Resolver } from 'react-hook-form';
import { TextField } from '@/components/ui/field';
import { errorMessage, sendJson } from '@/lib/api-client';
import { setCurrentUser } from '@/lib/auth';
import { toast } from '@/lib/toast-store';

// zod and the schemas load with the first validation (typing or submitting), not before the
// form is on screen; the rules are the same loginSchema's.
const loadValidation = () => import('./sign-in-validation');
const signInResolver: Resolver<LoginInput> = async (values, context, options) =>
  (await loadValidation()).signInResolver(values, context, options);

export function SignInForm() {
  const queryClient = useQueryClient();
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
      <button
        type="submit"
        className="button button--primary button--block"
        disabled={login.isPending}
      >
        {login.isPending ? 'Signing in...' : 'Sign In'}
      </button>
    </form>
  );
}
