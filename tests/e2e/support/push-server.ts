// For the push spec: the stand-in push service (api/test/push-service.ts, web-push-testing's
// model: it makes device subscriptions, checks each push's VAPID signature and decrypts it)
// and an API that may push to it (api/test/e2e/push-server.ts: the real app and the run's
// built web app, with the test-only option that allows a push service on 127.0.0.1, which
// the built server refuses). Chromium here cannot subscribe to a real push service, so the
// member's device is a stand-in subscription registered through the API; what the server
// pushed is read back decrypted and delivered to the member's real service worker (CDP).
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { freePort, readServerState, startScript, stopChild } from './server';

const deviceSchema = z.object({
  id: z.string(),
  endpoint: z.string(),
  p256dh: z.string(),
  auth: z.string(),
});
export type StandInDevice = z.infer<typeof deviceSchema>;

export interface PushServers {
  /** The API (and web app) that pushes to the stand-in: http://127.0.0.1:<port>. */
  origin: string;
  /** A device at the stand-in push service, bound to the API's VAPID key. */
  subscribeDevice(applicationServerKey: string): Promise<StandInDevice>;
  /** What the stand-in decrypted for this device, oldest first. */
  messages(deviceId: string): Promise<string[]>;
  stop(): Promise<void>;
}

async function json<S extends z.ZodType>(response: Response, schema: S): Promise<z.output<S>> {
  if (!response.ok) throw new Error(`${String(response.status)} ${await response.text()}`);
  return schema.parse(await response.json());
}

export async function startPushServers(): Promise<PushServers> {
  const state = readServerState();
  const children: ChildProcess[] = [];
  const stop = async () => {
    for (const child of children.reverse()) await stopChild(child);
  };
  try {
    const push = await startScript(
      'api/test/bench/push-service-main.ts',
      { ...process.env },
      (l) => (typeof l.url === 'string' ? l.url : undefined),
    );
    children.push(push.child);
    const port = await freePort();
    const origin = `http://127.0.0.1:${String(port)}`;
    // A fresh database for each start: the spec's first account must be this server's
    // administrator, also when the spec runs again in the same run (--repeat-each).
    const dataDir = mkdtempSync(path.join(state.runDir, 'push-data-'));
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PUBLIC_ORIGIN: origin,
      WEB_DIST: state.webDist,
      RATE_LIMIT_REGISTER_IP: '200/3600',
    };
    delete env.DATABASE_URL;
    const api = await startScript('api/test/e2e/push-server.ts', env, (l) =>
      typeof l.port === 'number' ? l.port : undefined,
    );
    children.push(api.child);
    return {
      origin,
      async subscribeDevice(applicationServerKey) {
        const { devices } = await json(
          await fetch(`${push.info}/control/subscribe`, {
            method: 'POST',
            body: JSON.stringify({ applicationServerKey, count: 1 }),
          }),
          z.object({ devices: z.array(deviceSchema).length(1) }),
        );
        return devices[0] as StandInDevice;
      },
      async messages(deviceId) {
        return (
          await json(
            await fetch(`${push.info}/control/messages/${deviceId}`),
            z.object({ messages: z.array(z.string()) }),
          )
        ).messages;
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
