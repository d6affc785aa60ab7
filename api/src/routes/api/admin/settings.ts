// System settings for administrators (issue 11): GET /api/admin/settings,
// PATCH /api/admin/settings {any settings}. Both also need the systemAdmin permission (an
// administrator has it unless their own or their role's entry says false). Every change is
// audited with who, before and after; an unchanged value is not a change.
import type { FastifyInstance } from 'fastify';
import { ErrorCode } from '@rescuelog/sync-protocol/errors';
import { settingsPatchSchema } from '@rescuelog/sync-protocol/settings';
import { parseInput, unauthenticated } from '../../../lib/api-error';
import { toJsonValue } from '../../../lib/json-value';
import { updateSettings } from '../../../services/settings-service';

export async function adminSettingsRoutes(fastify: FastifyInstance): Promise<void> {
  const preHandler = fastify.requirePermission('systemAdmin', 'edit');

  fastify.get('/admin/settings', { preHandler }, async () => {
    const { settings, updatedAt } = await fastify.settings.read();
    return { settings, updatedAt: updatedAt?.toISOString() ?? null };
  });

  fastify.patch('/admin/settings', { preHandler }, async (request) => {
    if (!request.user) throw unauthenticated();
    const patch = parseInput(settingsPatchSchema, request.body, ErrorCode.SETTING_INVALID);
    const change = await updateSettings(fastify.db, fastify.settings, request.user.id, patch);
    if (change.keys.length > 0) {
      await fastify.audit.record(request, {
        action: 'settings.update',
        outcome: 'success',
        entityType: 'system_settings',
        details: {
          keys: change.keys,
          before: toJsonValue(change.before),
          after: toJsonValue(change.after),
        },
      });
    }
    return { settings: change.settings, updatedAt: change.updatedAt?.toISOString() ?? null };
  });
}
