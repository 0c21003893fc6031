import { Type } from '@sinclair/typebox';
import type { RouteModule } from '../../app-types.ts';

export const metricsRoute: RouteModule = (app, c) =>
  app.get(
    '/metrics',
    {
      schema: {
        tags: ['system'],
        summary: 'Prometheus metrics',
        response: { 200: { description: 'Prometheus text exposition format', content: { 'text/plain': { schema: Type.String() } } } },
      },
    },
    async (_request, reply) => {
      reply.type(c.metrics.registry.contentType);
      return c.metrics.registry.metrics();
    },
  );
