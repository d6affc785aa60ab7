// GET /api/settings: what every device needs from System Settings (time zone, organisation
// name and logo, CPR defaults, upload limits), never the security settings. Pending users
// read it too: their screens show times as well.
import type { FastifyInstance } from 'fastify';
import { toPublicSettings } from '@rescuelog/sync-protocol/settings';

export async function settingsRoutes(fastify: FastifyInstance): Promise<void> {
  fastify.get('/settings', { config: { allowPending: true } }, async () => ({
    settings: toPublicSettings(await fastify.settings.get()),
  }));
}
