// The offer to turn on notifications on this device, on the home screen after sign-in
// (never a permission prompt on page load: the browser asks only after "Turn on"). "Not now"
// is remembered for this user on this device; the profile's section can turn them on later.
import { BellRing, X } from 'lucide-react';
import { useState } from 'react';
import { Callout } from '@/components/ui/callout';
import { errorMessage } from '@/lib/api-client';
import { dismissOffer, offerDismissed } from '@/lib/push-device';
import { toast } from '@/lib/toast-store';
import {
  PERMISSION_MESSAGES,
  UNAVAILABLE_MESSAGES,
  useDevicePush,
  useTurnOnPush,
} from '../api/device-push';
import styles from './push-offer.module.css';

export function PushOffer({ userId }: { userId: number }) {
  const [dismissed, setDismissed] = useState(() => offerDismissed(userId));
  const device = useDevicePush(userId);
  const turnOn = useTurnOnPush(userId);
  const state = device.data;
  if (dismissed || !state) return null;
  if (state.available && state.subscribed) return null;

  function dismiss() {
    dismissOffer(userId);
    setDismissed(true);
  }

  function accept() {
    turnOn.mutate(undefined, {
      onSuccess: (next) => {
        if (next.available && next.subscribed) {
          toast({
            title: 'Notifications on',
            description: 'This device now receives RescueLog notifications.',
          });
        }
      },
    });
  }

  // The answer to the browser's question, or why this device cannot take part.
  const problem = !state.available
    ? UNAVAILABLE_MESSAGES[state.reason]
    : state.permission === 'denied'
      ? PERMISSION_MESSAGES.denied
      : turnOn.data?.available && turnOn.data.permission === 'default'
        ? PERMISSION_MESSAGES.default
        : null;
  const canTurnOn = state.available && state.permission !== 'denied';

  return (
    <section className={`card ${styles.offer}`} aria-labelledby="push-offer-title">
      <div className={styles.head}>
        <BellRing aria-hidden="true" size={28} className={styles.icon} />
        <h2 id="push-offer-title" className="card__title">
          {canTurnOn ? 'Get notifications on this device' : 'Notifications on this device'}
        </h2>
        <button
          type="button"
          className="icon-button"
          aria-label="Dismiss notifications offer"
          onClick={dismiss}
        >
          <X aria-hidden="true" size={22} />
        </button>
      </div>
      {canTurnOn ? (
        <p>
          Alerts from your administrators reach this device even when RescueLog is closed:
          emergencies, call-outs and system notices.
        </p>
      ) : null}
      {problem ? (
        <Callout tone="warning" as="p" compact>
          {problem}
        </Callout>
      ) : null}
      {turnOn.isError ? (
        <p className="text-danger" role="alert">
          Notifications could not be turned on: {errorMessage(turnOn.error)}
        </p>
      ) : null}
      <div className={styles.actions}>
        {canTurnOn ? (
          <button
            type="button"
            className="button button--primary"
            disabled={turnOn.isPending}
            aria-busy={turnOn.isPending}
            onClick={accept}
          >
            {turnOn.isPending
              ? 'Turning on...'
              : turnOn.isError
                ? 'Try again'
                : 'Turn on notifications'}
          </button>
        ) : null}
        <button type="button" className="button button--secondary" onClick={dismiss}>
          {canTurnOn ? 'Not now' : 'OK'}
        </button>
      </div>
    </section>
  );
}
