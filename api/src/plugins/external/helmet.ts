// Security headers. The CSP fits the built SPA: scripts, styles, workers and the manifest
// come from our own origin; only inline style attributes (set by UI libraries) are allowed.
// The headers do not depend on the request (no CSP nonces), but @fastify/helmet rebuilds
// helmet's middleware and re-parses the CSP on every request (7 % of the CPU of a cached
// GET /api/user). So helmet runs once, at start, in a throwaway instance, and every response
// gets the headers it produced.
import helmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import Fastify from 'fastify';
import fp from 'fastify-plugin';

/** Headers any response carries whatever helmet's options; not copied from the probe. */
const NOT_HELMET = new Set(['content-type', 'content-length', 'date', 'connection', 'keep-alive']);

/** The headers helmet sets with `options`, produced once by a probe request. */
export async function helmetHeaders(
  options: FastifyHelmetOptions,
): Promise<Record<string, string>> {
  const probe = Fastify({ logger: false });
  try {
    await probe.register(helmet, options);
    probe.get('/', async () => '');
    const res = await probe.inject({ method: 'GET', url: '/' });
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(res.headers)) {
      if (NOT_HELMET.has(name.toLowerCase()) || value === undefined) continue;
      headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
    }
    return headers;
  } finally {
    await probe.close();
  }
}

/**
 * The browser features a page of ours may use: the camera (ID and certificate photos), the
 * microphone (the camera's capture may ask for it), geolocation (a case's location) and the
 * screen wake lock (the CPR logger, the protocol reader), for our own origin only. Everything else that reaches hardware, payments, other windows or the
 * user's activity is switched off, for embedded frames too.
 */
export const PERMISSIONS_POLICY = [
  'camera=(self)',
  'microphone=(self)',
  'geolocation=(self)',
  // The CPR logger keeps the screen on during an arrest (issue 39), and the protocol reader
  // while it reads aloud.
  'screen-wake-lock=(self)',
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
    const headers = await helmetHeaders({
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
    if (Object.keys(headers).length === 0) throw new Error('helmet produced no headers');
    // Helmet does not send Permissions-Policy; every answer (pages, API, files) carries it.
    // One object, built once, set with one call per request.
    const all = Object.freeze({ ...headers, 'permissions-policy': PERMISSIONS_POLICY });
    fastify.addHook('onRequest', (_request, reply, done) => {
      void reply.headers(all);
      done();
    });
  },
  { name: 'helmet', dependencies: ['env'] },
);
