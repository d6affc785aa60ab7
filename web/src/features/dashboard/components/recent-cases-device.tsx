// Recent Cases with the device's own cases merged in (loaded after the first screen).
import { useRecentCases } from '../api/use-recent-cases';
import { RecentCasesList } from './recent-cases';

export function DeviceRecentCases() {
  return <RecentCasesList recent={useRecentCases()} />;
}
