// /cpr-logger starts a session (the dashboard's CPR Logger tap); /cpr-logger/{sessionId} is
// the arrest screen of that session (also how a second device joins it).
import { useParams } from 'react-router-dom';
import { CprLoggerScreen } from '@/features/cpr/logger/cpr-logger-screen';
import { StartCprSession } from '@/features/cpr/logger/start-session';

export function CprLoggerRoute() {
  const { sessionId } = useParams();
  return sessionId ? (
    <CprLoggerScreen key={sessionId} sessionId={sessionId} />
  ) : (
    <StartCprSession />
  );
}
