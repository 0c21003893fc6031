import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { DomainError } from '../../../domain/errors/domain-error.ts';
import type { RouteModule } from '../../app-types.ts';
import type { SystemContext } from '../../route-contexts.ts';
import { hasBearerSecret } from '../../plugins/admin-auth.ts';
import { ShortError } from '../../schemas/common.ts';

/**
 * Prometheus metrics. With `METRICS_TOKEN` set, only `Authorization: Bearer <METRICS_TOKEN>` reads
 * them; without it they are public in sandbox and switched off (404) in production, where request
 * rates, routes and error counts are not for everyone. The route exists in every configuration, so
 * the API document always tells both refusals.
 */
export const metricsRoute: RouteModule<SystemContext> = (app, c) => {
  const token = c.config.metricsToken;
  const switchedOff = token === undefined && c.config.mode === 'production';
  app.get(
    '/metrics',
    {
      schema: {
        tags: ['system'],
        summary: 'Prometheus metrics',
        description: 'Public in the sandbox unless METRICS_TOKEN is set; with METRICS_TOKEN, only `Authorization: Bearer` with that token reads them; production without METRICS_TOKEN has them switched off.',
        ...(token ? { security: [{ metrics: [] }] } : {}),
        response: {
          200: { description: 'Prometheus text exposition format', content: { 'text/plain': { schema: Type.String() } } },
          401: { ...ShortError, description: 'METRICS_TOKEN is set and the request does not carry it as `Authorization: Bearer`' },
          404: { ...ShortError, description: 'Production without METRICS_TOKEN: metrics are switched off' },
        },
      },
      onRequest: async (request: FastifyRequest) => {
        if (switchedOff) throw new DomainError('NOT_FOUND', undefined, 'Metrics are switched off in production: set METRICS_TOKEN to read them with it');
        if (token !== undefined && !hasBearerSecret(request, token)) throw new DomainError('UNAUTHORIZED', undefined, 'Send Authorization: Bearer <METRICS_TOKEN>');
      },
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
