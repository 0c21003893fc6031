import { Type } from '@sinclair/typebox';
import type { RouteModule } from '../../app-types.ts';
import type { SystemContext } from '../../route-contexts.ts';
import { READINESS_CHECKS, readiness } from './readiness-checks.ts';

const Check = Type.Union([Type.Literal('ok'), Type.String()]);
const Readiness = Type.Object({
  status: Type.Union([Type.Literal('ready'), Type.Literal('not_ready')]),
  checks: Type.Object({
    ...Object.fromEntries(READINESS_CHECKS.map((check) => [check.name, Check])),
    draining: Type.Optional(Check),
  }),
});

/**
 * Readiness (a load balancer's question "may I send traffic here?"): every check of
 * readiness-checks.ts says 'ok', and the service is not shutting down (draining). 503 with
 * Retry-After otherwise, naming the failing check. Liveness is GET /health, which never asks the
 * database.
 */
export const readyRoute: RouteModule<SystemContext> = (app, c) =>
  app.get(
    '/ready',
    {
      schema: {
        tags: ['system'],
        summary: `Readiness: ${READINESS_CHECKS.map((check) => check.name).join(', ')}, not shutting down`,
        response: { 200: Readiness, 503: Readiness },
      },
    },
    async (_request, reply) => {
      // Shutting down (SIGTERM, src/http/drain.ts): not ready at once, without asking the database.
      if (c.drain.draining) {
        reply.code(503).header('retry-after', '5');
        const skipped = 'not checked: shutting down';
        const checks = Object.fromEntries(READINESS_CHECKS.map((check) => [check.name, skipped]));
        return { status: 'not_ready' as const, checks: { ...checks, draining: 'shutting down' } };
      }
      const { ready, checks } = await readiness(c);
      if (!ready) reply.code(503).header('retry-after', '5');
      return { status: ready ? ('ready' as const) : ('not_ready' as const), checks };
    },
  );
