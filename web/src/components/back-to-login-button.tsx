// The 'Back to Login' action of the pending and suspended screens: ends the session, then /auth.
import { useNavigate } from 'react-router-dom';
import { useLogout } from '@/lib/auth';

export function BackToLoginButton() {
  const logout = useLogout();
  const navigate = useNavigate();
  return (
    <button
      type="button"
      className="button button--primary button--block"
      disabled={logout.isPending}
      onClick={() =>
        logout.mutate(undefined, { onSuccess: () => void navigate('/auth', { replace: true }) })
      }
    >
      Back to Login
    </button>
  );
}
