import { randomUUID } from 'node:crypto';
import swagger from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Container } from './container.ts';
import { DomainError } from './domain/errors/domain-error.ts';
import type { App, RouteModule } from './http/app-types.ts';
import { contextOf, type ContextOf, type RouteFamily } from './http/route-contexts.ts';
import { errorHandler, formatForPath, sendProblem, type ErrorFormat } from './http/errors/formats.ts';
import { toProblem } from './http/errors/problem.ts';
import { registerJsonParser } from './http/json-body.ts';
import { refuseUnsafeText } from './http/text-guard.ts';
import { requireAdmin } from './http/plugins/admin-auth.ts';
import { requiredScopeOf } from './http/plugins/account-auth.ts';
import { requireSandboxCaller } from './http/plugins/sandbox-actor.ts';
import { adminRoutes } from './http/routes/admin/index.ts';
import { apiRoutes } from './http/routes/api/index.ts';
import { networkRoutes } from './http/routes/network/index.ts';
import { bacenRoutes } from './http/routes/bacen/index.ts';
import { oauthRoutes } from './http/routes/oauth/index.ts';
import { sandboxRoutes } from './http/routes/sandbox/index.ts';
import { systemRoutes } from './http/routes/system/index.ts';
import { serviceFormatNames, validatorCompiler } from './http/validation.ts';
import { docsReference } from './http/docs/reference.ts';
import { swaggerOptions } from './http/openapi/document.ts';
import { errorSchemas } from './http/openapi/error-schemas.ts';
import { checkResponsesAgainstDocument } from './http/openapi/response-check.ts';
import { documentRoute, operationIdOfModule, type FamilyDocs } from './http/openapi/route-docs.ts';
import { portalPlugin } from './portal/portal.plugin.tsx';
import { portalServicesOf } from './portal/portal-services.ts';
import { proxyTrust } from './http/client-certificate.ts';
import { requestIdOf } from './http/request-id.ts';
import { httpsServerOptions } from './http/tls.ts';
import { cachedSerializerFactory } from './http/serializer-cache.ts';
import { accessLine, noteClient } from './http/access-log.ts';
import { fastifyRequestContext } from '@fastify/request-context';
import { parseTraceparent } from './observability/trace-context.ts';

const ONE_MIB = 1024 * 1024;

/** Builds the HTTP app without listening: `main.ts` listens, tests inject. */
export async function buildApp(c: Container, options: { /** Tests: record every answer its route does not declare. */ checkResponses?: boolean } = {}): Promise<App> {
  const app = Fastify({
    loggerInstance: c.logger as FastifyBaseLogger,
    bodyLimit: ONE_MIB,
    // X-Request-Id: the caller's (or the front proxy's) when it is a sane token, else a new UUID.
    requestIdHeader: false,
    genReqId: (request) => requestIdOf(request.headers['x-request-id']) ?? randomUUID(),
    // X-Forwarded-For/-Proto believed only from TRUSTED_PROXIES.
    trustProxy: proxyTrust(c.config),
    // HTTPS (HTTP/2 and HTTP/1.1) when TLS_CERT_FILE/TLS_KEY_FILE are set.
    ...(httpsServerOptions(c.config.tls) as object),
    // One compact access line per request (below) instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    // Shutdown: a request that still reaches the app while it closes (on a connection opened before)
    // is served, with Connection: close, not refused with a bare 503; main.ts has already stopped
    // accepting connections and /ready has been saying 503 since SIGTERM (src/http/drain.ts).
    return503OnClosing: false,
    ajv: { customOptions: { allErrors: true } },
    // Answers are serialized by fast-json-stringify, whose ajv picks among anyOf branches: it knows our
    // formats exist (answers are checked against them by the suite, not on every response).
    serializerOpts: { ajv: { formats: Object.fromEntries(serviceFormatNames().map((name) => [name, true])) } },
    schemaController: { compilersFactory: { buildSerializer: cachedSerializerFactory } },
    // Path values are judged by their route's schema (an externalId may be 255 characters), not cut at 100.
    routerOptions: { maxParamLength: 2048 },
    // A malformed or oversized URL is refused by the router before any route: still in the family's format.
    frameworkErrors: (error, request, reply) => {
      reply.header('x-request-id', request.id);
      noteClient(request, c.config.tls !== undefined);
      return sendProblem(reply, request, toProblem(error), formatForPath(request.url), c.clock.now());
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  // W3C trace context: a valid incoming `traceparent` is the request's trace, passed on to what it
  // causes (provider calls, events and their webhook deliveries); see src/observability/trace-context.ts.
  await app.register(fastifyRequestContext, { defaultStoreValues: (request) => ({ trace: parseTraceparent(request.headers.traceparent) }) });
  registerJsonParser(app as unknown as FastifyInstance);

  // Every answer names its request id, which is also the errorId of an error envelope.
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
    noteClient(request, c.config.tls !== undefined);
  });
  // Graceful shutdown (src/http/drain.ts): once the service stops accepting connections, or the app
  // is closing, an HTTP/1.x answer ends its keep-alive connection, so the drained connection closes
  // with it instead of holding the exit until the bound (a front proxy keeps idle upstream
  // connections open).
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    // Live event streams end now: an open one would hold its connection, and the close, forever.
    void c.eventStreams.closeAll().then(() => done(), done);
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    if ((closing || c.drain.closing) && request.raw.httpVersionMajor === 1) reply.header('connection', 'close');
    done(null, payload);
  });
  // A POST, PUT or PATCH sent without a body is judged as an empty object: required fields are then
  // named one by one, and routes whose fields are all optional accept it.
  app.addHook('preValidation', async (request) => {
    if (request.body === undefined && (request.method === 'POST' || request.method === 'PUT' || request.method === 'PATCH')) {
      request.body = {};
    }
  });
  app.addHook('preValidation', refuseUnsafeText);
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    c.metrics.httpRequests.inc({ method: request.method, route, status: String(reply.statusCode) });
    c.metrics.httpDuration.observe({ method: request.method, route }, reply.elapsedTime / 1000);
    const status = reply.statusCode;
    if (status === 401 || status === 403 || status === 429) c.metrics.httpRefusals.inc({ method: request.method, route, status: String(status) });
    // One line per answer at info, refusals included (issue 25): on-call must find a customer's failing calls.
    request.log.info(accessLine(request, reply), 'request');
  });

  // Decisions 4.13: the OpenAPI document names the scope each bearer route needs.
  app.addHook('onRoute', (route) => {
    const scope = requiredScopeOf(route.onRequest);
    if (scope && route.schema) route.schema = { ...route.schema, security: [{ bearer: [scope] }] };
  });
  for (const schema of errorSchemas) app.addSchema(schema);
  await app.register(swagger, swaggerOptions(c.config));
  if (options.checkResponses) checkResponsesAgainstDocument(app as unknown as FastifyInstance);
  // /docs: Swagger UI from node_modules (never a CDN); it opens on the document's getting-started
  // description, then the reference with "Try it out" and the 3.1 webhooks (src/http/docs/reference.ts).
  await docsReference(app as unknown as FastifyInstance, { publicUrl: c.config.publicUrl });

  // Each family gets its own context: the services its routes use, never the database (route-contexts.ts).
  const family = <F extends RouteFamily>(name: F, format: ErrorFormat, routes: RouteModule<ContextOf<F>>[], setup?: (scope: App) => void, docs: Partial<FamilyDocs> = {}) =>
    app.register(async (scope) => {
      const context = contextOf(c, name);
      const s = scope as unknown as App;
      s.setErrorHandler(errorHandler(format, () => c.clock.now()));
      // The module being registered names its operation (createCashInRoute -> createCashIn).
      let current: RouteModule<ContextOf<F>> | undefined;
      s.addHook('onRoute', documentRoute({ format, security: [], authStatuses: [401, 403], ...docs }, () => current && operationIdOfModule(current.name)));
      setup?.(s);
      for (const route of routes) {
        current = route;
        route(s, context);
      }
      current = undefined;
    });

  await family('system', 'short', systemRoutes);
  await family('api', 'full', apiRoutes);
  await family('bacen', 'short', bacenRoutes);
  await family('oauth', 'oauth', oauthRoutes, undefined, { security: [{ clientBasic: [] }, {}], authStatuses: [401] });
  await family('admin', 'short', adminRoutes, (s) => s.addHook('onRequest', requireAdmin(c.config.adminToken, c.authFailures)), { security: [{ admin: [] }], authStatuses: [401, 429] });
  if (c.providerNetwork) {
    // The provider's notices: the body is kept as the exact text received, which the signature covers.
    await family('network', 'short', networkRoutes, (s) => {
      s.removeAllContentTypeParsers();
      s.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => done(null, body));
    });
  }
  if (c.config.mode === 'sandbox') {
    await family('sandbox', 'short', sandboxRoutes, (s) => s.addHook('onRequest', requireSandboxCaller(c)), { security: [{ admin: [] }, { bearer: [] }] });
  }

  // The web portal (issue 14): its own scope (cookies, form bodies, HTML error pages).
  await app.register(
    async (scope) => {
      // HTML pages for people, not API operations: kept out of the OpenAPI document and its checks.
      scope.addHook('onRoute', (route) => {
        route.schema = { ...(route.schema ?? {}), hide: true } as typeof route.schema;
      });
      return portalPlugin(scope as unknown as FastifyInstance, portalServicesOf(c));
    },
    { prefix: '/portal' },
  );

  app.setNotFoundHandler((request, reply) => {
    const problem = toProblem(new DomainError('NOT_FOUND', undefined, `Route ${request.method} ${request.url.split('?')[0]} not found`));
    return sendProblem(reply, request, problem, formatForPath(request.url), c.clock.now());
  });
  app.setErrorHandler((error, request, reply) => errorHandler(formatForPath(request.url), () => c.clock.now())(error, request, reply));

  return app as unknown as App;
}
