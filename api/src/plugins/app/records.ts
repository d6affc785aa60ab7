// fastify.records: the record registry the sync routes, the conflict review and the case
// routes work with. The app's registry unless buildApp was given another (a test adds a
// throwaway kind that way, with its own migration, and nothing else changes).
import fp from 'fastify-plugin';
import type { Registry } from '@rescuelog/sync-protocol/platform/registry';
import { appRegistry } from '@rescuelog/sync-protocol/records/registry';

declare module 'fastify' {
  interface FastifyInstance {
    records: Registry;
  }
}

export const recordsPlugin = fp<{ registry?: Registry | undefined }>(
  async (fastify, options) => {
    fastify.decorate('records', options.registry ?? appRegistry);
  },
  { name: 'records' },
);
