import { sql } from 'kysely';
import { Type } from '@sinclair/typebox';
import type { RouteModule } from '../../app-types.ts';
import { DomainError } from '../../../domain/errors/domain-error.ts';
import { DATABASE_RETRY_AFTER_S } from '../../../db/db-faults.ts';

/** /health answers within a second whatever the database does (a locked, partitioned or full pool). */
export const HEALTH_DEADLINE_MS = 800;

export const healthRoute: RouteModule = (app, c) =>
  app.get(
    '/health',
    { schema: { tags: ['system'], summary: 'Liveness and database reachability', response: { 200: Type.Object({ status: Type.Literal('ok') }) } } },
    async (request) => {
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<'late'>((resolve) => {
        timer = setTimeout(() => resolve('late'), HEALTH_DEADLINE_MS);
      });
      const probe = sql`SELECT 1`.execute(c.db).then(
        () => 'ok' as const,
        (error: unknown) => {
          request.log.warn({ err: error }, 'health: the database probe failed');
          return 'failed' as const;
        },
      );
      const outcome = await Promise.race([probe, deadline]).finally(() => clearTimeout(timer));
      if (outcome !== 'ok') {
        throw new DomainError(
          'SERVICE_UNAVAILABLE',
          { retryAfterSeconds: DATABASE_RETRY_AFTER_S },
          outcome === 'late' ? `The database did not answer within ${HEALTH_DEADLINE_MS} ms` : 'The database does not answer',
        );
      }
      return { status: 'ok' as const };
    },
  );
