// PUT /api/user/documents {idDocumentUrl?, certificationsUrl?} -> {user}: records the current
// user's uploaded documents (pending users too: they upload right after registering).
import type { FastifyInstance } from 'fastify';
import { documentsSchema } from '@rescuelog/sync-protocol/accounts/uploads';
import { parseInput, unauthenticated } from '../../../lib/api-error';
import { findUserWithRolePermissions } from '../../../repositories/users-repository';
import { toPublicUser } from '../../../services/users-service';
import { updateUserDocuments } from '../../../services/user-documents-service';

export async function userDocumentRoutes(fastify: FastifyInstance): Promise<void> {
  fastify.put('/user/documents', { config: { allowPending: true } }, async (request) => {
    if (!request.user) throw unauthenticated();
    const input = parseInput(documentsSchema, request.body);
    const { before, after } = await updateUserDocuments(fastify.db, request.user.id, input);
    await fastify.audit.record(request, {
      action: 'user.documents',
      outcome: 'success',
      entityType: 'user',
      entityId: request.user.id,
      details: { before, after },
    });
    const found = await findUserWithRolePermissions(fastify.db, request.user.id);
    if (!found) throw unauthenticated();
    return { user: toPublicUser(found.user, found.rolePermissions, found.roleName) };
  });
}
