// Sync conflict review (administrators only, by location under /api/admin):
// GET /api/admin/conflicts?resolved=false, GET /api/admin/conflicts/:id,
// POST /api/admin/conflicts/:id/resolve { choice: 'server' | 'client' | 'custom', value? }.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  conflictListQuerySchema,
  conflictResolveSchema,
} from '@rescuelog/sync-protocol/platform/conflicts';
import { parseInput, unauthenticated } from '../../../lib/api-error';
import {
  getConflict,
  listConflicts,
  resolveConflict,
} from '../../../services/sync/conflicts-service';

const conflictParamsSchema = z.strictObject({
  id: z.string().regex(/^\d{1,18}$/, 'Invalid input'),
});

export async function adminConflictRoutes(fastify: FastifyInstance): Promise<void> {
  fastify.get('/admin/conflicts', async (request) => {
    const { resolved, limit } = parseInput(conflictListQuerySchema, request.query);
    return { conflicts: await listConflicts(fastify.db, fastify.records, { resolved, limit }) };
  });

  fastify.get('/admin/conflicts/:id', async (request) => {
    const { id } = parseInput(conflictParamsSchema, request.params);
    const conflict = await getConflict(fastify.db, fastify.records, id);
    await fastify.audit.record(request, {
      action: 'sync.conflict.view',
      outcome: 'success',
      entityType: conflict.entity,
      entityId: conflict.entityId,
      details: { conflictId: id, field: conflict.field },
    });
    return { conflict };
  });

  fastify.post('/admin/conflicts/:id/resolve', async (request) => {
    if (!request.user) throw unauthenticated();
    const { id } = parseInput(conflictParamsSchema, request.params);
    const { choice, value } = parseInput(conflictResolveSchema, request.body);
    const { conflict, before, after } = await resolveConflict(
      fastify.db,
      fastify.records,
      request.user.id,
      id,
      choice,
      value,
    );
    await fastify.audit.record(request, {
      action: 'sync.conflict.resolve',
      outcome: 'success',
      entityType: conflict.entity,
      entityId: conflict.entityId,
      details: { conflictId: id, field: conflict.field, choice, before, after },
    });
    return { conflict };
  });
}
