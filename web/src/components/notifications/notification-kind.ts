// How a notification's type and priority are shown, wherever one appears: the bell's dialog
// and the administrator's preview (spec §2: types emergency, system, maintenance, otherwise
// general; priority colours critical red, high orange, normal blue, low gray, from the
// --c-critical/--c-high/--c-normal/--c-low tokens).
import type {
  NotificationPriority,
  NotificationType,
} from '@rescuelog/sync-protocol/notifications';
import { Bell, Info, Siren, Wrench, type LucideIcon } from 'lucide-react';

export const NOTIFICATION_TYPE_DISPLAY: Record<
  NotificationType,
  { icon: LucideIcon; label: string }
> = {
  emergency: { icon: Siren, label: 'Emergency' },
  system: { icon: Info, label: 'System' },
  maintenance: { icon: Wrench, label: 'Maintenance' },
  general: { icon: Bell, label: 'General' },
};

export const NOTIFICATION_PRIORITY_LABELS: Record<NotificationPriority, string> = {
  critical: 'Critical priority',
  high: 'High priority',
  normal: 'Normal priority',
  low: 'Low priority',
};
