// The protocols as a list of links (all of them, or a search's results), and the quick grid of
// the most urgent. Shared by /protocols and the message for an unknown category.
import type { Protocol, ProtocolCategory } from '@rescuelog/sync-protocol/reference/first-aid';
import {
  Activity,
  ChevronRight,
  Droplets,
  HeartPulse,
  Syringe,
  Wind,
  type LucideIcon,
} from 'lucide-react';
import { Link } from 'react-router-dom';
import styles from './protocols.module.css';

const ICONS: Partial<Record<ProtocolCategory, LucideIcon>> = {
  cpr: HeartPulse,
  choking: Wind,
  'severe-bleeding': Droplets,
  anaphylaxis: Syringe,
};

export const protocolPath = (p: Protocol) => `/protocols/${p.category}`;

export function UrgentGrid({ protocols }: { protocols: readonly Protocol[] }) {
  return (
    <nav aria-label="Most urgent protocols">
      <ul className={styles.urgent}>
        {protocols.map((p) => {
          const Icon = ICONS[p.category] ?? Activity;
          return (
            <li key={p.category}>
              <Link to={protocolPath(p)} className={styles.urgentLink}>
                <Icon aria-hidden="true" size={32} />
                <span>{p.title}</span>
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

export function ProtocolList({
  protocols,
  label,
}: {
  protocols: readonly Protocol[];
  label: string;
}) {
  return (
    <ul className={styles.list} aria-label={label}>
      {protocols.map((p) => (
        <li key={p.category}>
          <Link to={protocolPath(p)} className={styles.listLink}>
            <span className={styles.listText}>
              <span className={styles.listTitle}>{p.title}</span>
              <span className={styles.listSummary}>{p.summary}</span>
            </span>
            <ChevronRight aria-hidden="true" size={24} />
          </Link>
        </li>
      ))}
    </ul>
  );
}
