// Serves the built web app (WEB_DIST) from the same origin as the API, with the SPA fallback:
// any GET outside /api that is not a file gets index.html. The not-found handler in app.ts
// calls `sendWebApp` for those requests. index.html and the service worker must be
// revalidated on every load so an update reaches the user; hashed assets are immutable.
import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import fp from 'fastify-plugin';
import type { FastifyReply } from 'fastify';

declare module 'fastify' {
  interface FastifyInstance {
    /** Replies with the SPA's index.html, or a page saying to build it. */
    sendWebApp(reply: FastifyReply): FastifyReply;
  }
}

const NO_CACHE = new Set(['index.html', 'sw.js', 'manifest.webmanifest', 'registerSW.js']);

function notBuiltPage(webDist: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>RescueLog</title></head>
<body><h1>The web app has not been built yet</h1>
<p>No built web app was found in <code>${webDist.replace(/[<>&]/g, '')}</code>.</p>
<p>Run <code>npx -y pnpm@10 run build</code> at the repository root, then restart the server.</p></body></html>`;
}

export const webAppPlugin = fp(
  async (fastify) => {
    const root = fastify.config.webDist;
    const built = existsSync(path.join(root, 'index.html'));
    if (built) {
      await fastify.register(fastifyStatic, {
        root,
        wildcard: true,
        index: 'index.html',
        // The web build writes .br and .gz beside each text asset (web/vite.config.ts).
        preCompressed: true,
        // Cache-Control is ours (setHeaders below), not the library's default.
        cacheControl: false,
        // A missing asset must be a 404, not index.html served as JavaScript.
        setHeaders(res, filePath) {
          const name = path.basename(filePath);
          if (NO_CACHE.has(name)) res.setHeader('cache-control', 'no-cache');
          else if (filePath.includes(`${path.sep}assets${path.sep}`))
            res.setHeader('cache-control', 'public, max-age=31536000, immutable');
          else res.setHeader('cache-control', 'public, max-age=0, must-revalidate');
        },
      });
    } else {
      fastify.log.warn({ webDist: root }, 'web app not built; serving a placeholder page');
    }
    fastify.decorate('sendWebApp', (reply: FastifyReply) => {
      if (built) {
        return reply.header('cache-control', 'no-cache').sendFile('index.html');
      }
      return reply
        .code(503)
        .header('cache-control', 'no-cache')
        .type('text/html; charset=utf-8')
        .send(notBuiltPage(root));
    });
  },
  { name: 'web-app', dependencies: ['env'] },
);
