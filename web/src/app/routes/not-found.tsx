import { MapPinOff } from 'lucide-react';
import { Link } from 'react-router-dom';
import { StatusPage } from '@/components/ui/status-page';

export function NotFoundRoute() {
  return (
    <StatusPage
      icon={<MapPinOff size={40} />}
      title="Page Not Found"
      actions={
        <Link to="/" className="button button--primary button--block">
          Go to Home
        </Link>
      }
    >
      <p>The page you are looking for does not exist or has moved.</p>
    </StatusPage>
  );
}
