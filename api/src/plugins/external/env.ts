// Makes the resolved configuration (src/config.ts) available as `fastify.config`.
import fp from 'fastify-plugin';
import type { AppConfig } from '../../config';

declare module 'fastify' {
  interface FastifyInstance {
    config: AppConfig;
  }
}

export const envPlugin = fp<{ config: AppConfig }>(
  async (fastify, options) => {
    fastify.decorate('config', options.config);
  },
  { name: 'env', fastify: '5.x' },
);
