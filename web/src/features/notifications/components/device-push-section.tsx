// Profile: "Notifications on this device" — whether this browser can receive push, whether
// it is allowed to, whether it is registered for the signed-in user; turning it on and off;
// and a test push to every device of the user, with its progress and result.
import type { DevicePushState } from '@/lib/push-device';
import { Spinner } from '@/components/ui/spinner';
import { Callout } from '@/components/ui/callout';
import { errorMessage } from '@/lib/api-client';
import {
  PERMISSION_MESSAGES,
  UNAVAILABLE_MESSAGES,
  useDevicePush,
  useSendTestPush,
  useTurnOffPush,
  useTurnOnPush,
} from '../api/device-push';
import styles from './device-push-section.module.css';

const PERMISSION_TEXT: Record<NotificationPermission, string> = {
  granted: 'Allowed',
  denied: 'Blocked in the browser settings',
  default: 'Not asked yet',
};

function Facts({ state }: { state: DevicePushState }) {
  return (
    <dl className={styles.facts}>
      <div>
        <dt>This browser</dt>
        <dd>
          {state.available ? 'Can receive push notifications' : 'Cannot receive push notifications'}
        </dd>
      </div>
      {state.available ? (
        <div>
          <dt>Permission</dt>
          <dd>{PERMISSION_TEXT[state.permission]}</dd>
        </div>
      ) : null}
      <div>
        <dt>This device</dt>
        <dd>
          {state.available && state.subscribed
            ? 'Receives your notifications'
            : 'Does not receive notifications'}
        </dd>
      </div>
    </dl>
  );
}

function testResult(devices: number): string {
  if (devices === 0) return 'No device of yours receives notifications yet: turn them on first.';
  return `Test sent to ${String(devices)} ${devices === 1 ? 'device' : 'devices'}. It should appear within a few seconds.`;
}

export function DevicePushSection({ userId }: { userId: number }) {
  const device = useDevicePush(userId);
  const turnOn = useTurnOnPush(userId);
  const turnOff = useTurnOffPush(userId);
  const test = useSendTestPush();
  const state = device.data;
  const changing = turnOn.isPending || turnOff.isPending;

  let body;
  if (device.isPending) body = <Spinner label="Checking this device" />;
  else if (device.isError || !state)
    body = (
      <p className="text-danger">
        This device&apos;s notification settings could not be read ({errorMessage(device.error)}).
      </p>
    );
  else {
    const problem = !state.available
      ? UNAVAILABLE_MESSAGES[state.reason]
      : state.permission === 'denied'
        ? PERMISSION_MESSAGES.denied
        : turnOn.data?.available && turnOn.data.permission === 'default'
          ? PERMISSION_MESSAGES.default
          : null;
    body = (
      <>
        <Facts state={state} />
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
        {turnOff.isError ? (
          <p className="text-danger" role="alert">
            Notifications could not be turned off: {errorMessage(turnOff.error)}
          </p>
        ) : null}
        <div className={styles.actions}>
          {state.available && state.subscribed ? (
            <button
              type="button"
              className="button button--secondary"
              disabled={changing}
              aria-busy={turnOff.isPending}
              onClick={() => turnOff.mutate()}
            >
              {turnOff.isPending ? 'Turning off...' : 'Turn off notifications'}
            </button>
          ) : state.available && state.permission !== 'denied' ? (
            <button
              type="button"
              className="button button--primary"
              disabled={changing}
              aria-busy={turnOn.isPending}
              onClick={() => turnOn.mutate()}
            >
              {turnOn.isPending ? 'Turning on...' : 'Turn on notifications'}
            </button>
          ) : null}
          <button
            type="button"
            className="button button--secondary"
            disabled={test.isPending || changing}
            aria-busy={test.isPending}
            onClick={() => test.mutate()}
          >
            {test.isPending ? 'Sending...' : 'Send me a test'}
          </button>
        </div>
      </>
    );
  }

  return (
    <section className="card settings-section" aria-labelledby="device-push-title">
      <h2 id="device-push-title" className="card__title">
        Notifications on this device
      </h2>
      {body}
      {/* The test's progress and result, announced as they change. */}
      <div role="status" className={styles.result}>
        {test.isPending ? 'Sending a test notification...' : null}
        {test.isSuccess ? testResult(test.data) : null}
        {test.isError ? `The test could not be sent: ${errorMessage(test.error)}` : null}
      </div>
    </section>
  );
}
