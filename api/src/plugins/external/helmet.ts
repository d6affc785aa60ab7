// Security headers. The CSP fits the built SPA: scripts, styles, workers and the manifest
// come from our own origin; only inline style attributes (set by UI libraries) are allowed.
import helmet from '@fastify/helmet';
import fp from 'fastify-plugin';

export const helmetPlugin = fp(
  async (fastify) => {
    const https = fastify.config.publicOrigin.startsWith('https:');
    await fastify.register(helmet, {
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:', 'blob:'],
          fontSrc: ["'self'", 'data:'],
          connectSrc: ["'self'"],
          workerSrc: ["'self'"],
          manifestSrc: ["'self'"],
          mediaSrc: ["'self'", 'blob:'],
          objectSrc: ["'none'"],
          baseUri: ["'self'"],
          formAction: ["'self'"],
          frameAncestors: ["'none'"],
          // Upgrading would break the plain-http local address the README starts.
          ...(https ? { upgradeInsecureRequests: [] } : {}),
        },
      },
      strictTransportSecurity: https ? { maxAge: 15552000, includeSubDomains: true } : false,
      // Uploaded files are served to our own pages only.
      crossOriginResourcePolicy: { policy: 'same-origin' },
    });
  },
  { name: 'helmet', dependencies: ['env'] },
);
