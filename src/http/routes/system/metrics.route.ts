import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { DomainError } from '../../../domain/errors/domain-error.ts';
import type { RouteModule } from '../../app-types.ts';
import { hasBearerSecret } from '../../plugins/admin-auth.ts';
import { ShortError } from '../../schemas/common.ts';

/**
 * Prometheus metrics. With `METRICS_TOKEN` set, only `Authorization: Bearer <METRICS_TOKEN>` reads
 * them; without it they are public in sandbox and switched off (404) in production, where request
 * rates, routes and error counts are not for everyone.
 */
export const metricsRoute: RouteModule = (app, c) => {
  const token = c.config.metricsToken;
  if (token === undefined && c.config.mode === 'production') return;
  app.get(
    '/metrics',
    {
      schema: {
        tags: ['system'],
        summary: 'Prometheus metrics',
        ...(token ? { security: [{ metrics: [] }] } : {}),
        response: {
          200: { description: 'Prometheus text exposition format', content: { 'text/plain': { schema: Type.String() } } },
          ...(token ? { 401: ShortError } : {}),
        },
      },
      ...(token
        ? {
            onRequest: async (request: FastifyRequest) => {
              if (!hasBearerSecret(request, token)) throw new DomainError('UNAUTHORIZED', undefined, 'Send Authorization: Bearer <METRICS_TOKEN>');
            },
          }
        : {}),
    },
    async (request, reply) => {
      let text: string;
      try {
        text = await c.metrics.exposition();
      } catch (error) {
        request.log.error({ err: error }, 'metrics: the workers could not be gathered');
        throw new DomainError('SERVICE_UNAVAILABLE');
      }
      reply.type(c.metrics.registry.contentType);
      return text;
    },
  );
};
