// The only /api routes that work without a session. Anything else belongs in
// routes/api/protected-routes.ts.
import type { FastifyInstance } from 'fastify';
import { authRoutes } from './auth';
import { healthRoutes } from './health';
import { pushReceiptRoutes } from './push-receipts';
import { sessionRoutes } from './session';

export async function publicRoutes(fastify: FastifyInstance): Promise<void> {
  await fastify.register(healthRoutes);
  await fastify.register(authRoutes);
  await fastify.register(pushReceiptRoutes);
  await fastify.register(sessionRoutes);
}
