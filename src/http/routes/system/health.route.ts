import { sql } from 'kysely';
import { Type } from '@sinclair/typebox';
import type { RouteModule } from '../../app-types.ts';
import { DomainError } from '../../../domain/errors/domain-error.ts';

export const healthRoute: RouteModule = (app, c) =>
  app.get(
    '/health',
    { schema: { tags: ['system'], summary: 'Liveness and database reachability', response: { 200: Type.Object({ status: Type.Literal('ok') }) } } },
    async () => {
      try {
        await sql`SELECT 1`.execute(c.db);
      } catch {
        throw new DomainError('SERVICE_UNAVAILABLE', undefined, 'The database does not answer');
      }
      return { status: 'ok' as const };
    },
  );
