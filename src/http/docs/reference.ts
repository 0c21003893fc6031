import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';

/**
 * /docs: Swagger UI (swagger-ui-dist 5, a static bundle that declares no Node range, so it fits the
 * supported Node 20.19+ and 24; docs/decisions.md, "Node 20 and the /docs renderer"). It renders the
 * document's `info.description` (the getting-started guide) first, then every operation with its
 * "Try it out", then the OpenAPI 3.1 `webhooks`. Every file comes from node_modules through this
 * service: nothing is fetched from a CDN or any other host (the page's Content-Security-Policy says so
 * to the browser too).
 */

const require = createRequire(import.meta.url);
const DIST = path.dirname(require.resolve('swagger-ui-dist/package.json'));

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.png': 'image/png',
  '.map': 'application/json; charset=utf-8',
};
/** The bundle's files the page uses (and their source maps, which a browser's developer tools ask for). */
const DIST_FILES = ['swagger-ui-bundle.js', 'swagger-ui-bundle.js.map', 'swagger-ui.css', 'swagger-ui.css.map', 'favicon-32x32.png', 'favicon-16x16.png'];

/**
 * Swagger UI's options. `BaseLayout`: no top bar (its "explore" box loads any URL); `validatorUrl: null`:
 * no badge from the hosted validator; authorizations are kept in memory only (never localStorage).
 */
const SETTINGS = {
  url: '/openapi.json',
  dom_id: '#swagger-ui',
  layout: 'BaseLayout',
  deepLinking: true,
  tryItOutEnabled: true,
  displayRequestDuration: true,
  requestSnippetsEnabled: true,
  persistAuthorization: false,
  validatorUrl: null,
  defaultModelsExpandDepth: 0,
  docExpansion: 'list',
};

/**
 * The page's script. One plugin: a tag no path operation carries (\`webhook events\`, which tags the
 * document's \`webhooks\`) is not shown as an empty section of the paths; the webhooks have their own
 * "Webhooks" section below them.
 */
const INIT = `'use strict';
function HideEmptyTags() {
  return {
    statePlugins: {
      spec: {
        wrapSelectors: {
          taggedOperations: (original) => (...args) => original(...args).filter((tag) => tag.get('operations').size > 0),
        },
      },
    },
  };
}
window.ui = SwaggerUIBundle(Object.assign(${JSON.stringify(SETTINGS)}, { presets: [SwaggerUIBundle.presets.apis], plugins: [HideEmptyTags] }));
`;

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>pix-account-service API</title>
<link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png" sizes="32x32">
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/assets/init.js"></script>
</body>
</html>
`;

/**
 * Scripts and styles only from this service; "Try it out" may call this origin and the document's
 * server (PUBLIC_URL, which may be another origin than the one /docs was opened on).
 */
function contentSecurityPolicy(publicUrl: string): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    // Swagger UI (React) sets style attributes.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    `connect-src 'self' ${new URL(publicUrl).origin}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

interface Asset {
  type: string;
  body: Buffer;
}

const cache = new Map<string, Asset>();

/** The bundle's file, read once on first use (the bundle is 1.7 MB: not read by services that never serve /docs). */
function asset(name: string): Asset | undefined {
  let found = cache.get(name);
  if (found) return found;
  if (name === 'init.js') found = { type: TYPES['.js']!, body: Buffer.from(INIT) };
  else if (DIST_FILES.includes(name)) found = { type: TYPES[path.extname(name)]!, body: readFileSync(path.join(DIST, name)) };
  if (found) cache.set(name, found);
  return found;
}

/** Registers GET /docs (and /docs/) and /docs/assets/:name, kept out of the OpenAPI document. */
export async function docsReference(app: FastifyInstance, options: { publicUrl: string }): Promise<void> {
  const csp = contentSecurityPolicy(options.publicUrl);
  const page = async (_request: unknown, reply: FastifyReply) =>
    reply
      .header('content-type', 'text/html; charset=utf-8')
      .header('content-security-policy', csp)
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'no-referrer')
      .header('cache-control', 'no-cache')
      .send(PAGE);
  app.get('/docs', { schema: { hide: true } }, page);
  app.get('/docs/', { schema: { hide: true } }, page);
  app.get<{ Params: { name: string } }>('/docs/assets/:name', { schema: { hide: true } }, async (request, reply) => {
    const found = asset(request.params.name);
    if (!found) return reply.callNotFound();
    return (
      reply
        .header('content-type', found.type)
        .header('x-content-type-options', 'nosniff')
        // The files change only with swagger-ui-dist's version or this service: an hour is enough.
        .header('cache-control', 'public, max-age=3600')
        .send(found.body)
    );
  });
}
