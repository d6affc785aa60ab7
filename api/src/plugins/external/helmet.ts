// Security headers. The CSP fits the built SPA: scripts, styles, workers and the manifest
// come from our own origin; only inline style attributes (set by UI libraries) are allowed.
import helmet from '@fastify/helmet';
import fp from 'fastify-plugin';

/**
 * The browser features a page of ours may use: the camera (ID and certificate photos), the
 * microphone (the camera's capture may ask for it) and geolocation (a case's location), for
 * our own origin only. Everything else that reaches hardware, payments, other windows or the
 * user's activity is switched off, for embedded frames too.
 */
export const PERMISSIONS_POLICY = [
  'camera=(self)',
  'microphone=(self)',
  'geolocation=(self)',
  ...[
    'accelerometer',
    'ambient-light-sensor',
    'autoplay',
    'bluetooth',
    'browsing-topics',
    'display-capture',
    'encrypted-media',
    'gyroscope',
    'hid',
    'identity-credentials-get',
    'idle-detection',
    'interest-cohort',
    'local-fonts',
    'magnetometer',
    'midi',
    'otp-credentials',
    'payment',
    'picture-in-picture',
    'publickey-credentials-get',
    'screen-wake-lock',
    'serial',
    'storage-access',
    'usb',
    'window-management',
    'xr-spatial-tracking',
  ].map((feature) => `${feature}=()`),
].join(', ');

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
    // Helmet does not send Permissions-Policy; every answer (pages, API, files) carries it.
    fastify.addHook('onRequest', async (_request, reply) => {
      reply.header('permissions-policy', PERMISSIONS_POLICY);
    });
  },
  { name: 'helmet', dependencies: ['env'] },
);
