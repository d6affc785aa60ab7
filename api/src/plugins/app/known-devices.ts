// Known devices (docs/decisions/022): after a successful sign-in the browser gets a signed
// cookie naming that account and a random device id. A later sign-in to the same account that
// shows it is throttled on its own counter, so failures made by others (from any address,
// the station's shared one included) never keep the real user out on their own device.
// One cookie holds the last few accounts signed in on the device (a shared tablet).
// The cookie is scoped to the login route, HttpOnly, SameSite=Strict, Secure over TLS.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';

export const DEVICE_COOKIE = 'rescuelog_device';
export const DEVICE_COOKIE_PATH = '/api/login';
/** Accounts remembered per device, most recent first. */
export const DEVICE_COOKIE_ACCOUNTS = 5;
const MAX_AGE_SECONDS = 180 * 24 * 60 * 60;

const entrySchema = z.string().regex(/^[1-9][0-9]{0,15}-[0-9a-f]{32}$/);

export interface KnownDevices {
  /** The device id this request's cookie holds for `userId`, if the cookie is genuine. */
  deviceIdFor(request: FastifyRequest, userId: number): string | undefined;
  /** Adds (or moves first) `userId` in the device cookie after a successful sign-in. */
  remember(request: FastifyRequest, reply: FastifyReply, userId: number): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    knownDevices: KnownDevices;
  }
}

export const knownDevicesPlugin = fp(
  async (fastify) => {
    // Its own key, derived from the session secret, so a device cookie is never a session MAC.
    const key = createHmac('sha256', fastify.config.sessionSecret)
      .update('rescuelog known-device cookie v1')
      .digest();
    const mac = (payload: string) => createHmac('sha256', key).update(payload).digest('base64url');

    function entries(request: FastifyRequest): Array<{ userId: number; deviceId: string }> {
      const raw = request.cookies[DEVICE_COOKIE];
      if (raw === undefined || raw.length > 1024) return [];
      const dot = raw.lastIndexOf('.');
      if (dot < 1) return [];
      const payload = raw.slice(0, dot);
      const given = Buffer.from(raw.slice(dot + 1));
      const expected = Buffer.from(mac(payload));
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return [];
      const out: Array<{ userId: number; deviceId: string }> = [];
      for (const part of payload.split('_')) {
        if (!entrySchema.safeParse(part).success) return [];
        const [id = '', deviceId = ''] = part.split('-');
        out.push({ userId: Number(id), deviceId });
      }
      return out;
    }

    fastify.decorate('knownDevices', {
      deviceIdFor(request, userId) {
        return entries(request).find((e) => e.userId === userId)?.deviceId;
      },
      remember(request, reply, userId) {
        const current = entries(request);
        const deviceId =
          current.find((e) => e.userId === userId)?.deviceId ?? randomBytes(16).toString('hex');
        const next = [{ userId, deviceId }, ...current.filter((e) => e.userId !== userId)].slice(
          0,
          DEVICE_COOKIE_ACCOUNTS,
        );
        const payload = next.map((e) => `${String(e.userId)}-${e.deviceId}`).join('_');
        reply.setCookie(DEVICE_COOKIE, `${payload}.${mac(payload)}`, {
          path: DEVICE_COOKIE_PATH,
          httpOnly: true,
          sameSite: 'strict',
          secure: fastify.config.cookieSecure,
          maxAge: MAX_AGE_SECONDS,
        });
      },
    } satisfies KnownDevices);
  },
  { name: 'known-devices', dependencies: ['session'] },
);
