// The compose form's draft turned into POST /api/admin/notifications' body, checked with the
// API's own schema (spec §5 messages) plus what only the form knows: a chosen audience that
// names nobody (an empty targetRoles means everyone to the API, so it is refused here), and
// a send time typed in the service's time zone, turned into an instant.
import {
  notificationCreateSchema,
  SCHEDULE_MESSAGES,
  type NotificationCreateInput,
  type NotificationPriority,
  type NotificationType,
} from '@rescuelog/sync-protocol/notifications';
import { fromZonedInputValue } from '@rescuelog/sync-protocol/time';

export type Audience = 'everyone' | 'roles' | 'users';

export interface ComposeDraft {
  title: string;
  message: string;
  type: NotificationType;
  priority: NotificationPriority;
  url: string;
  sound: string;
  audience: Audience;
  /** Role names (targetRoles). */
  roles: string[];
  userIds: number[];
  when: 'now' | 'later';
  /** A datetime-local value read in the service's time zone. */
  sendAt: string;
}

export const EMPTY_DRAFT: ComposeDraft = {
  title: '',
  message: '',
  type: 'general',
  priority: 'normal',
  url: '',
  sound: '',
  audience: 'everyone',
  roles: [],
  userIds: [],
  when: 'now',
  sendAt: '',
};

export type ComposeField =
  'title' | 'message' | 'type' | 'priority' | 'url' | 'sound' | 'targets' | 'scheduledFor';
export type ComposeErrors = Partial<Record<ComposeField, string>>;

export const COMPOSE_MESSAGES = {
  noRoles: 'Choose at least one role',
  noUsers: 'Choose at least one person',
  noSendAt: 'Enter the date and time to send it',
} as const;

/** The latest instant a notification may be scheduled for: a year ahead, as the API counts. */
export function latestSchedule(now: number): number {
  const limit = new Date(now);
  limit.setUTCFullYear(limit.getUTCFullYear() + 1);
  return limit.getTime();
}

/**
 * The address as the API wants it: a path of this app ('/case-search') stays a path, so the
 * link follows the app to whatever address it is served from; an address of this very app
 * typed in full is sent as its path (the API takes only paths and https addresses).
 */
export function resolveUrl(text: string, origin: string): string | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return trimmed; // a path, or not an address at all (the schema says which)
  }
  return url.origin === origin ? `${url.pathname}${url.search}${url.hash}` : trimmed;
}

/** The instant the draft's send time names, or the reason it cannot be used. */
export function scheduledInstant(
  sendAt: string,
  now: number,
): { ok: true; iso: string } | { ok: false; message: string } {
  const instant = fromZonedInputValue(sendAt);
  if (!instant) return { ok: false, message: COMPOSE_MESSAGES.noSendAt };
  if (instant.getTime() <= now) return { ok: false, message: SCHEDULE_MESSAGES.past };
  if (instant.getTime() > latestSchedule(now))
    return { ok: false, message: SCHEDULE_MESSAGES.tooFar };
  return { ok: true, iso: instant.toISOString() };
}

export function buildNotificationInput(
  draft: ComposeDraft,
  { now, origin }: { now: number; origin: string },
): { ok: true; input: NotificationCreateInput } | { ok: false; errors: ComposeErrors } {
  const errors: ComposeErrors = {};
  const url = resolveUrl(draft.url, origin);
  const sound = draft.sound.trim() || undefined;
  let scheduledFor: string | undefined;
  if (draft.when === 'later') {
    const at = scheduledInstant(draft.sendAt, now);
    if (at.ok) scheduledFor = at.iso;
    else errors.scheduledFor = at.message;
  }
  if (draft.audience === 'roles' && draft.roles.length === 0)
    errors.targets = COMPOSE_MESSAGES.noRoles;
  if (draft.audience === 'users' && draft.userIds.length === 0)
    errors.targets = COMPOSE_MESSAGES.noUsers;

  const parsed = notificationCreateSchema.safeParse({
    title: draft.title,
    message: draft.message,
    type: draft.type,
    priority: draft.priority,
    ...(draft.audience === 'roles' ? { targetRoles: draft.roles } : {}),
    ...(draft.audience === 'users' ? { targetUserIds: draft.userIds } : {}),
    ...(scheduledFor ? { scheduledFor } : {}),
    ...(url ? { url } : {}),
    ...(sound ? { sound } : {}),
  });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const head = issue.path[0];
      const field: ComposeField =
        head === 'targetRoles' || head === 'targetUserIds'
          ? 'targets'
          : ((head as ComposeField | undefined) ?? 'title');
      errors[field] ??= issue.message;
    }
  }
  if (!parsed.success || Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, input: parsed.data };
}

/** The API's field errors (400 VALIDATION_FAILED) on the form's fields. */
export function fieldErrorsFromApi(fieldErrors: Record<string, string[]>): ComposeErrors {
  const errors: ComposeErrors = {};
  for (const [key, messages] of Object.entries(fieldErrors)) {
    const head = key.split('.')[0];
    const field: ComposeField | undefined =
      head === 'targetRoles' || head === 'targetUserIds'
        ? 'targets'
        : head === 'title' ||
            head === 'message' ||
            head === 'type' ||
            head === 'priority' ||
            head === 'url' ||
            head === 'sound' ||
            head === 'scheduledFor'
          ? head
          : undefined;
    if (field && messages[0]) errors[field] ??= messages[0];
  }
  return errors;
}
