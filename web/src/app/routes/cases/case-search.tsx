// /case-search: Cases Logged (search the server's cases online, the device's offline).
import { CaseSearchPage } from '@/features/cases/search/case-search-page';

export function CaseSearchRoute() {
  return <CaseSearchPage />;
}
