import type { RouteModule } from '../../app-types.ts';

export const metricsRoute: RouteModule = (app, c) =>
  app.get('/metrics', { schema: { tags: ['system'], summary: 'Prometheus metrics', hide: false } }, async (_request, reply) => {
    reply.type(c.metrics.registry.contentType);
    return c.metrics.registry.metrics();
  });
