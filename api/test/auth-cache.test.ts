// The cache's own safety rules (lib/auth-cache.ts), with a notification source the test
// drives: it serves nothing until the epoch is confirmed, nothing while not listening, drops
// everything on an epoch gap, and keeps no entry read before a change it has heard of.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import { createTestDatabase, type TestDatabaseHandle } from '@rescuelog/db/testing';
import { registerNotificationSource, type NotificationHandlers } from '@rescuelog/db/notifications';
import { AuthCache } from '../src/lib/auth-cache';

const silent = {
  info: () => undefined,
  warn: () => undefined,
} as unknown as FastifyBaseLogger;

describe('AuthCache', () => {
  let handle: TestDatabaseHandle;
  let handlers: NotificationHandlers | undefined;

  beforeAll(async () => {
    handle = await createTestDatabase();
    registerNotificationSource(handle.db, {
      subscribe(_channel, given) {
        handlers = given;
        given.onListening();
        return Promise.resolve(() => Promise.resolve());
      },
    });
  });

  afterAll(async () => {
    await handle.close();
  });

  async function started(): Promise<AuthCache<{ userId: number }, string>> {
    const cache = new AuthCache<{ userId: number }, string>(handle.db, silent, {
      pollMs: 60_000,
      staleBoundMs: 60_000,
    });
    await cache.start();
    return cache;
  }

  it('serves what it stored until a notification names it', async () => {
    const cache = await started();
    cache.putUser(1, 'one', '0');
    cache.putUser(2, 'two', '0');
    expect(cache.user(1)).toBe('one');
    handlers?.onNotification('1:u:1');
    expect(cache.user(1)).toBeUndefined();
    expect(cache.user(2)).toBe('two');
    await cache.stop();
  });

  it('serves nothing while the listener is lost, and starts empty when it is back', async () => {
    const cache = await started();
    cache.putSession('sid', { userId: 5 }, '0');
    expect(cache.session('sid')).toEqual({ userId: 5 });
    handlers?.onLost(new Error('connection reset'));
    expect(cache.session('sid')).toBeUndefined();
    cache.putSession('sid', { userId: 5 }, '0');
    expect(cache.session('sid')).toBeUndefined();
    handlers?.onListening();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(cache.session('sid')).toBeUndefined();
    await cache.stop();
  });

  it('drops everything when an epoch was skipped (a missed notification)', async () => {
    const cache = await started();
    cache.putUser(1, 'one', '0');
    cache.putSession('a', { userId: 9 }, '0');
    handlers?.onNotification('3:u:2'); // epoch 1 and 2 never arrived
    expect(cache.user(1)).toBeUndefined();
    expect(cache.session('a')).toBeUndefined();
    await cache.stop();
  });

  it('keeps no entry read before a change it has heard of', async () => {
    const cache = await started();
    handlers?.onNotification('1:s:4');
    cache.putUser(4, 'read at epoch 0', '0');
    expect(cache.user(4)).toBeUndefined();
    cache.putUser(4, 'read at epoch 1', '1');
    expect(cache.user(4)).toBe('read at epoch 1');
    await cache.stop();
  });

  it('drops every user when a role changed, and sessions by their user', async () => {
    const cache = await started();
    cache.putUser(1, 'one', '0');
    cache.putSession('x', { userId: 1 }, '0');
    cache.putSession('y', { userId: 2 }, '0');
    handlers?.onNotification('1:*:');
    expect(cache.user(1)).toBeUndefined();
    expect(cache.session('x')).toEqual({ userId: 1 });
    handlers?.onNotification('2:s:1');
    expect(cache.session('x')).toBeUndefined();
    expect(cache.session('y')).toEqual({ userId: 2 });
    await cache.stop();
  });
});
