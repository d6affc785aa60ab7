// /cpr-logs: CPR session history; /cpr-logs/{sessionId}: one session's timeline and summary.
import { useParams } from 'react-router-dom';
import { CprLogsPage } from '@/features/cpr/logs/cpr-logs-page';
import { CprSessionPage } from '@/features/cpr/logs/cpr-session-page';

export function CprLogsRoute() {
  const { sessionId } = useParams();
  return sessionId ? <CprSessionPage key={sessionId} sessionId={sessionId} /> : <CprLogsPage />;
}
