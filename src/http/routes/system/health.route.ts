import { Type } from '@sinclair/typebox';
import type { RouteModule } from '../../app-types.ts';
import type { SystemContext } from '../../route-contexts.ts';

/**
 * Liveness (an orchestrator's question "should this process be restarted?"): 200 while the process
 * and its event loop are alive, whatever the database or the pool does. Answering it needs a turn of
 * the event loop and nothing else: no query, no pooled connection. A database that is away, a full
 * pool or a locked row make GET /ready answer 503 (take the instance out of the load balancer), never
 * this: restarting a healthy process because its database blinked would only add an outage.
 */
export const healthRoute: RouteModule<SystemContext> = (app) =>
  app.get(
    '/health',
    { schema: { tags: ['system'], summary: 'Liveness: the process and its event loop answer (never asks the database)', response: { 200: Type.Object({ status: Type.Literal('ok') }) } } },
    async () => ({ status: 'ok' as const }),
  );
