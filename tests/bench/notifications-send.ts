// One notification to 5,000 subscribed users through the stand-in push service (issue 16).
// The real API (api/test/bench/notifications-server.ts: the app with its notification job,
// allowed to push to 127.0.0.1 by the test-only option) and the stand-in push service
// (api/test/bench/push-service-main.ts: web-push-testing's model verifies and decrypts every
// push) run as two processes, so the server's memory is its own. Measured from the
// administrator's "send now" until the push service has accepted and decrypted every push:
// seconds, pushes per second, and the server's resident memory sampled every 100 ms while
// sending. On the embedded database, and on PostgreSQL beside it when BENCH_DATABASE_URL (or
// DATABASE_URL) names a server. Targets: at least 200 pushes/s, memory flat. Reports only.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { newVapidEnv } from '@rescuelog/sync-protocol/server/vapid-keys';
import { freePort, startScript, stopChild } from '../e2e/support/server';
import {
  createBenchDatabase,
  round,
  sessionCookie,
  table,
  writeHeaders,
  writeResult,
} from './support';

const DEVICES = Number(process.env.BENCH_PUSH_DEVICES ?? 5000);
const TARGET_PUSHES_PER_SECOND = 200;
const SAMPLE_MS = 100;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function rssMiB(pid: number): number {
  try {
    const status = readFileSync(`/proc/${String(pid)}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN) / 1024;
  } catch {
    return Number.NaN;
  }
}

async function json<T>(response: Response): Promise<T> {
  if (!response.ok) throw new Error(`${String(response.status)} ${await response.text()}`);
  return (await response.json()) as T;
}

interface Side {
  database: string;
  devices: number;
  allPushedSeconds: number;
  pushesPerSecond: number;
  sentStatusSeconds: number;
  idleMiB: number;
  peakMiB: number;
  afterMiB: number;
  pushed: number;
}

async function measure(database: 'embedded' | 'postgresql', serverUrl?: string): Promise<Side> {
  const runDir = mkdtempSync(path.join(tmpdir(), 'rescuelog-push-bench-'));
  const children: ChildProcess[] = [];
  const pg = serverUrl ? await createBenchDatabase(serverUrl) : undefined;
  try {
    const push = await startScript(
      'api/test/bench/push-service-main.ts',
      { ...process.env },
      (line) => (typeof line.url === 'string' ? line.url : undefined),
    );
    children.push(push.child);
    const vapid = newVapidEnv('mailto:bench@example.org');
    const { devices } = await json<{ devices: unknown[] }>(
      await fetch(`${push.info}/control/subscribe`, {
        method: 'POST',
        body: JSON.stringify({ applicationServerKey: vapid.VAPID_PUBLIC_KEY, count: DEVICES }),
      }),
    );
    const devicesFile = path.join(runDir, 'devices.json');
    writeFileSync(devicesFile, JSON.stringify(devices));

    const port = await freePort();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      ...vapid,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      PORT: String(port),
      PUBLIC_ORIGIN: `http://127.0.0.1:${String(port)}`,
      DATA_DIR: path.join(runDir, 'data'),
      SESSION_SECRET: 'notification-bench-secret-0123456789abcdef',
      BENCH_DEVICES_FILE: devicesFile,
    };
    delete env.DATABASE_URL;
    if (pg) env.DATABASE_URL = pg.url;
    const server = await startScript('api/test/bench/notifications-server.ts', env, (line) =>
      typeof line.port === 'number'
        ? { port: line.port, email: String(line.email), password: String(line.password) }
        : undefined,
    );
    children.push(server.child);
    const pid = server.child.pid ?? 0;
    const origin = `http://127.0.0.1:${String(server.info.port)}`;
    const login = await fetch(`${origin}/api/login`, {
      method: 'POST',
      headers: writeHeaders(origin),
      body: JSON.stringify({ email: server.info.email, password: server.info.password }),
    });
    await json(login);
    const cookie = sessionCookie(login);
    await sleep(2000);
    const idleMiB = rssMiB(pid);

    const samples: number[] = [];
    const sampler = setInterval(() => samples.push(rssMiB(pid)), SAMPLE_MS);
    const started = performance.now();
    const { notification } = await json<{ notification: { id: number } }>(
      await fetch(`${origin}/api/admin/notifications`, {
        method: 'POST',
        headers: { ...writeHeaders(origin), cookie },
        body: JSON.stringify({
          title: 'Station alert',
          message: 'All crews: MCI on the N2, report to staging at the Somerset West interchange.',
          type: 'emergency',
          priority: 'critical',
          url: 'https://rescue.example.org/multi-patient',
        }),
      }),
    );
    let allPushedMs = Number.NaN;
    let sentMs = Number.NaN;
    let pushed = 0;
    const deadline = Date.now() + 20 * 60_000;
    while (Date.now() < deadline && (Number.isNaN(allPushedMs) || Number.isNaN(sentMs))) {
      if (Number.isNaN(allPushedMs)) {
        const stats = await json<{ accepted: number }>(await fetch(`${push.info}/control/stats`));
        if (stats.accepted >= DEVICES) allPushedMs = performance.now() - started;
      }
      if (Number.isNaN(sentMs)) {
        const detail = await json<{
          notification: { status: string; figures: { pushed: number } };
        }>(
          await fetch(`${origin}/api/admin/notifications/${String(notification.id)}`, {
            headers: { cookie },
          }),
        );
        pushed = detail.notification.figures.pushed;
        if (detail.notification.status === 'sent') sentMs = performance.now() - started;
      }
      await sleep(50);
    }
    clearInterval(sampler);
    await sleep(1000);
    const afterMiB = rssMiB(pid);
    return {
      database,
      devices: DEVICES,
      allPushedSeconds: round(allPushedMs / 1000, 2),
      pushesPerSecond: round((DEVICES / allPushedMs) * 1000, 0),
      sentStatusSeconds: round(sentMs / 1000, 2),
      idleMiB: round(idleMiB),
      peakMiB: round(Math.max(...samples.filter((s) => !Number.isNaN(s)))),
      afterMiB: round(afterMiB),
      pushed,
    };
  } finally {
    for (const child of children.reverse()) await stopChild(child);
    rmSync(runDir, { recursive: true, force: true });
    await pg?.drop();
  }
}

export async function runNotificationsSendBench(): Promise<Record<string, unknown>> {
  const sides: Side[] = [await measure('embedded')];
  const base = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL;
  if (base) sides.push(await measure('postgresql', base));
  console.log(
    `\nNotification send: one notification to ${String(DEVICES)} subscribed users through the stand-in push service (target ≥ ${String(TARGET_PUSHES_PER_SECOND)} pushes/s, flat memory)`,
  );
  table(
    sides.map((side) => ({
      database: side.database,
      'all pushed s': side.allPushedSeconds,
      'pushes/s': side.pushesPerSecond,
      '÷ target': round(side.pushesPerSecond / TARGET_PUSHES_PER_SECOND, 2),
      "status 'sent' s": side.sentStatusSeconds,
      'idle MiB': side.idleMiB,
      'peak while sending MiB': side.peakMiB,
      'peak − idle MiB': round(side.peakMiB - side.idleMiB),
      'after MiB': side.afterMiB,
      'figures.pushed': side.pushed,
    })),
  );
  const result = { targetPushesPerSecond: TARGET_PUSHES_PER_SECOND, sides };
  console.log(`written to ${writeResult('notifications-send', result)}`);
  return result;
}

if (import.meta.url === `file://${process.argv[1] ?? ''}`) await runNotificationsSendBench();
