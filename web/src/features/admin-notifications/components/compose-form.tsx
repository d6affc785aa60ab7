// Compose a notification (spec §5 rules and messages, the API's own schema), preview it on a
// phone as it is typed, choose who gets it, and send it now or at a time in the service's
// time zone. Sending to everyone asks first.
import {
  NOTIFICATION_PRIORITIES,
  NOTIFICATION_TYPES,
} from '@rescuelog/sync-protocol/notifications';
import {
  formatDateTime,
  fromZonedInputValue,
  serviceTimeZone,
} from '@rescuelog/sync-protocol/time';
import { useState, type FormEvent } from 'react';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { DateTimeField, SelectField, TextAreaField, TextField } from '@/components/ui/field';
import { errorMessage, parseErrorBody } from '@/lib/api-client';
import { toast } from '@/lib/toast-store';
import { useSendNotification, useTargetUsers } from '../api/admin-notifications';
import {
  buildNotificationInput,
  EMPTY_DRAFT,
  fieldErrorsFromApi,
  type ComposeDraft,
  type ComposeErrors,
} from '../compose-input';
import { NotificationPreview } from './notification-preview';
import { TargetPicker } from './target-picker';
import styles from './admin-notifications.module.css';

const TITLE_MAX = 100;
const MESSAGE_MAX = 500;

const TYPE_LABELS: Record<(typeof NOTIFICATION_TYPES)[number], string> = {
  general: 'General',
  emergency: 'Emergency',
  system: 'System',
  maintenance: 'Maintenance',
};
const PRIORITY_LABELS: Record<(typeof NOTIFICATION_PRIORITIES)[number], string> = {
  low: 'Low',
  normal: 'Normal',
  high: 'High',
  critical: 'Critical',
};

function counter(text: string, max: number): string {
  return `${String(text.trim().length)} of ${String(max)} characters`;
}

export function ComposeForm() {
  const [draft, setDraft] = useState<ComposeDraft>(EMPTY_DRAFT);
  const [errors, setErrors] = useState<ComposeErrors & { form?: string }>({});
  const [confirming, setConfirming] = useState(false);
  const send = useSendNotification();
  // Only for the "everyone" confirmation's head count.
  const everyone = useTargetUsers(draft.audience === 'everyone');
  const zone = serviceTimeZone();
  const busy = send.isPending;

  function set<K extends keyof ComposeDraft>(key: K, value: ComposeDraft[K]) {
    setDraft((d) => ({ ...d, [key]: value }));
  }

  function check() {
    const built = buildNotificationInput(draft, {
      now: Date.now(),
      origin: window.location.origin,
    });
    if (!built.ok) setErrors(built.errors);
    else setErrors({});
    return built;
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    const built = check();
    if (!built.ok) return;
    if (draft.audience === 'everyone') setConfirming(true);
    else deliver();
  }

  function deliver() {
    // Checked again at the moment of sending: a scheduled time may have passed meanwhile.
    const built = check();
    if (!built.ok) return;
    send.mutate(built.input, {
      onSuccess: ({ notification }) => {
        const scheduled = notification.status === 'scheduled';
        toast({
          title: scheduled ? 'Notification scheduled' : 'Notification sent',
          description: scheduled
            ? `${notification.title}: goes out ${formatDateTime(notification.scheduledFor)}.`
            : `${notification.title}: ${String(notification.figures.recipients)} ${notification.figures.recipients === 1 ? 'recipient' : 'recipients'}.`,
        });
        setDraft(EMPTY_DRAFT);
        setErrors({});
      },
      onError: (error) => {
        const body = parseErrorBody(error);
        const fields = body?.fieldErrors ? fieldErrorsFromApi(body.fieldErrors) : {};
        setErrors(
          Object.keys(fields).length > 0 ? fields : { form: `Not sent: ${errorMessage(error)}` },
        );
      },
    });
  }

  const sendAt = draft.when === 'later' ? fromZonedInputValue(draft.sendAt) : null;
  const headCount = everyone.data?.length;

  return (
    <section className={`card ${styles.compose}`} aria-labelledby="compose-title">
      <h2 id="compose-title" className="card__title">
        New notification
      </h2>
      <div className={styles.composeGrid}>
        <form className="form" noValidate onSubmit={submit} aria-busy={busy}>
          <TextField
            label="Title"
            required
            value={draft.title}
            disabled={busy}
            onChange={(e) => set('title', e.currentTarget.value)}
            error={errors.title}
            hint={counter(draft.title, TITLE_MAX)}
          />
          <TextAreaField
            label="Message"
            required
            rows={4}
            value={draft.message}
            disabled={busy}
            onChange={(e) => set('message', e.currentTarget.value)}
            error={errors.message}
            hint={counter(draft.message, MESSAGE_MAX)}
          />
          <div className={styles.pair}>
            <SelectField
              label="Type"
              value={draft.type}
              disabled={busy}
              onChange={(e) => set('type', e.currentTarget.value as ComposeDraft['type'])}
              error={errors.type}
            >
              {NOTIFICATION_TYPES.map((t) => (
                <option key={t} value={t}>
                  {TYPE_LABELS[t]}
                </option>
              ))}
            </SelectField>
            <SelectField
              label="Priority"
              value={draft.priority}
              disabled={busy}
              onChange={(e) => set('priority', e.currentTarget.value as ComposeDraft['priority'])}
              error={errors.priority}
            >
              {NOTIFICATION_PRIORITIES.map((p) => (
                <option key={p} value={p}>
                  {PRIORITY_LABELS[p]}
                </option>
              ))}
            </SelectField>
          </div>
          <TextField
            label="Link (optional)"
            type="text"
            inputMode="url"
            autoComplete="off"
            value={draft.url}
            disabled={busy}
            onChange={(e) => set('url', e.currentTarget.value)}
            error={errors.url}
            hint="Opened when the notification is tapped: a screen of this app such as /case-search, or a full https address."
          />
          <TextField
            label="Sound (optional)"
            autoComplete="off"
            value={draft.sound}
            disabled={busy}
            onChange={(e) => set('sound', e.currentTarget.value)}
            error={errors.sound}
            hint="The name of a sound the installed app plays. Browsers use the device's own notification sound."
          />
          <TargetPicker
            audience={draft.audience}
            roles={draft.roles}
            userIds={draft.userIds}
            error={errors.targets}
            disabled={busy}
            onAudience={(a) => set('audience', a)}
            onRoles={(r) => set('roles', r)}
            onUserIds={(ids) => set('userIds', ids)}
          />
          <fieldset className="fieldset">
            <legend className="fieldset__legend">When</legend>
            <div className={styles.segmented}>
              <label className={styles.segment}>
                <input
                  type="radio"
                  name="when"
                  value="now"
                  checked={draft.when === 'now'}
                  disabled={busy}
                  onChange={() => set('when', 'now')}
                />
                Send now
              </label>
              <label className={styles.segment}>
                <input
                  type="radio"
                  name="when"
                  value="later"
                  checked={draft.when === 'later'}
                  disabled={busy}
                  onChange={() => set('when', 'later')}
                />
                Schedule
              </label>
            </div>
            {draft.when === 'later' ? (
              <DateTimeField
                label={`Date and time (${zone})`}
                required
                value={draft.sendAt}
                disabled={busy}
                onChange={(value) => set('sendAt', value)}
                error={errors.scheduledFor}
                hint={
                  sendAt
                    ? `Goes out ${formatDateTime(sendAt)}, ${zone} time.`
                    : `Times are in the service's time zone, ${zone}, within the next year.`
                }
              />
            ) : errors.scheduledFor ? (
              <p className="field__error" role="alert">
                {errors.scheduledFor}
              </p>
            ) : null}
          </fieldset>
          {errors.form ? (
            <p className="field__error" role="alert">
              {errors.form}
            </p>
          ) : null}
          <button type="submit" className="button button--primary button--block" disabled={busy}>
            {busy
              ? draft.when === 'later'
                ? 'Scheduling...'
                : 'Sending...'
              : draft.when === 'later'
                ? 'Schedule notification'
                : 'Send notification'}
          </button>
        </form>
        <NotificationPreview
          title={draft.title}
          message={draft.message}
          type={draft.type}
          priority={draft.priority}
          when={draft.when === 'later' ? (sendAt ? formatDateTime(sendAt) : 'scheduled') : 'now'}
        />
      </div>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={draft.when === 'later' ? 'Schedule for everyone?' : 'Send to everyone?'}
        description={`“${draft.title.trim()}” goes to every approved account${
          headCount === undefined
            ? ''
            : ` (${String(headCount)} ${headCount === 1 ? 'person' : 'people'})`
        }${draft.when === 'later' && sendAt ? ` on ${formatDateTime(sendAt)}` : ' now'}.`}
        confirmLabel={draft.when === 'later' ? 'Schedule for everyone' : 'Send to everyone'}
        onConfirm={deliver}
      />
    </section>
  );
}
