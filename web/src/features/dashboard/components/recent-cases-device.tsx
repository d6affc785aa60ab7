// Recent Cases with the device's own cases merged in (loaded after the first screen).
import { useRecentCases } from '../api/use-recent-cases';
import type { ServerCases } from '../api/use-recent-server-cases';
import { RecentCasesList } from './recent-cases';

export function DeviceRecentCases({ server }: { server: ServerCases }) {
  return <RecentCasesList recent={useRecentCases(server)} />;
}
