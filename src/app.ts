import { randomUUID } from 'node:crypto';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Container } from './container.ts';
import { DomainError } from './domain/errors/domain-error.ts';
import type { App, RouteModule } from './http/app-types.ts';
import { errorHandler, formatForPath, sendProblem, type ErrorFormat } from './http/errors/formats.ts';
import { toProblem } from './http/errors/problem.ts';
import { registerJsonParser } from './http/json-body.ts';
import { refuseNulCharacters } from './http/nul-guard.ts';
import { requireAdmin } from './http/plugins/admin-auth.ts';
import { requiredScopeOf } from './http/plugins/account-auth.ts';
import { requireSandboxCaller } from './http/plugins/sandbox-actor.ts';
import { adminRoutes } from './http/routes/admin/index.ts';
import { apiRoutes } from './http/routes/api/index.ts';
import { bacenRoutes } from './http/routes/bacen/index.ts';
import { oauthRoutes } from './http/routes/oauth/index.ts';
import { sandboxRoutes } from './http/routes/sandbox/index.ts';
import { systemRoutes } from './http/routes/system/index.ts';
import { validatorCompiler } from './http/validation.ts';
import { portalPlugin } from './portal/portal.plugin.tsx';

const ONE_MIB = 1024 * 1024;

/** Builds the HTTP app without listening: `main.ts` listens, tests inject. */
export async function buildApp(c: Container): Promise<App> {
  const app = Fastify({
    loggerInstance: c.logger as FastifyBaseLogger,
    bodyLimit: ONE_MIB,
    genReqId: () => randomUUID(),
    // One compact access line per request (below, at debug) instead of Fastify's two at info.
    logController: new LogController({ disableRequestLogging: true }),
    ajv: { customOptions: { allErrors: true } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  registerJsonParser(app as unknown as FastifyInstance);

  // Every answer names its request id, which is also the errorId of an error envelope.
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  // A POST, PUT or PATCH sent without a body is judged as an empty object: required fields are then
  // named one by one, and routes whose fields are all optional accept it.
  app.addHook('preValidation', async (request) => {
    if (request.body === undefined && (request.method === 'POST' || request.method === 'PUT' || request.method === 'PATCH')) {
      request.body = {};
    }
  });
  app.addHook('preValidation', refuseNulCharacters);
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    c.metrics.httpRequests.inc({ method: request.method, route, status: String(reply.statusCode) });
    c.metrics.httpDuration.observe({ method: request.method, route }, reply.elapsedTime / 1000);
    const status = reply.statusCode;
    if (status === 401 || status === 403 || status === 429) c.metrics.httpRefusals.inc({ method: request.method, route, status: String(status) });
    request.log.debug({ method: request.method, route, status: reply.statusCode, ms: Math.round(reply.elapsedTime) }, 'request');
  });

  // Decisions 4.13: the OpenAPI document names the scope each bearer route needs.
  app.addHook('onRoute', (route) => {
    const scope = requiredScopeOf(route.onRequest);
    if (scope && route.schema) route.schema = { ...route.schema, security: [{ bearer: [scope] }] };
  });
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'pix-account-service',
        version: '0.1.0',
        description: 'A payment-account service for PIX: charges, payouts, refunds, MED and webhooks.',
      },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          admin: { type: 'http', scheme: 'bearer', description: 'ADMIN_TOKEN' },
        },
      },
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });

  const family = (format: ErrorFormat, routes: RouteModule[], setup?: (scope: App) => void) =>
    app.register(async (scope) => {
      const s = scope as unknown as App;
      s.setErrorHandler(errorHandler(format, () => c.clock.now()));
      setup?.(s);
      for (const route of routes) route(s, c);
    });

  await family('short', systemRoutes);
  await family('full', apiRoutes);
  await family('short', bacenRoutes);
  await family('oauth', oauthRoutes);
  await family('short', adminRoutes, (s) => s.addHook('onRequest', requireAdmin(c.config.adminToken)));
  if (c.config.mode === 'sandbox') await family('short', sandboxRoutes, (s) => s.addHook('onRequest', requireSandboxCaller(c)));

  // The web portal (issue 14): its own scope (cookies, form bodies, HTML error pages).
  await app.register(async (scope) => portalPlugin(scope as unknown as FastifyInstance, c), { prefix: '/portal' });

  app.setNotFoundHandler((request, reply) => {
    const problem = toProblem(new DomainError('NOT_FOUND', undefined, `Route ${request.method} ${request.url.split('?')[0]} not found`));
    return sendProblem(reply, request, problem, formatForPath(request.url), c.clock.now());
  });
  app.setErrorHandler((error, request, reply) => errorHandler(formatForPath(request.url), () => c.clock.now())(error, request, reply));

  return app as unknown as App;
}
