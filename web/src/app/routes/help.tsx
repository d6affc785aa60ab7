// /help: the help guide (issue 42), ungated (spec §6).
import { HelpPage } from '@/features/help/components/help-page';

export function HelpRoute() {
  return <HelpPage />;
}
