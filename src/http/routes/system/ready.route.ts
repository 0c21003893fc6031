import { sql } from 'kysely';
import { Type } from '@sinclair/typebox';
import type { RouteModule } from '../../app-types.ts';
import { pendingMigrations } from '../../../db/migrate.ts';

const CHECK_TIMEOUT_MS = 2000;
const Check = Type.Union([Type.Literal('ok'), Type.String()]);
const Readiness = Type.Object({
  status: Type.Union([Type.Literal('ready'), Type.Literal('not_ready')]),
  checks: Type.Object({ database: Check, migrations: Check, scheduler: Check, draining: Type.Optional(Check) }),
});

/** A check's answer within CHECK_TIMEOUT_MS: 'ok', or why not. */
async function check(run: () => Promise<string>): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<string>((resolve) => (timer = setTimeout(() => resolve(`no answer within ${CHECK_TIMEOUT_MS} ms`), CHECK_TIMEOUT_MS)));
  try {
    return await Promise.race([run().catch((error: Error) => `failed: ${error.message}`), late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Readiness (a load balancer's question "may I send traffic here?"): the database answers, every
 * migration this code knows is applied, the job scheduler is running, and the service is not shutting
 * down (draining). 503 with Retry-After otherwise, naming the failing check. Liveness stays GET /health.
 */
export const readyRoute: RouteModule = (app, c) =>
  app.get(
    '/ready',
    { schema: { tags: ['system'], summary: 'Readiness: database, migrations, scheduler, not shutting down', response: { 200: Readiness, 503: Readiness } } },
    async (_request, reply) => {
      // Shutting down (SIGTERM, src/http/drain.ts): not ready at once, without asking the database.
      if (c.drain.draining) {
        reply.code(503).header('retry-after', '5');
        const skipped = 'not checked: shutting down';
        return { status: 'not_ready' as const, checks: { database: skipped, migrations: skipped, scheduler: skipped, draining: 'shutting down' } };
      }
      const database = await check(async () => (await sql`SELECT 1`.execute(c.db), 'ok'));
      const migrations =
        database === 'ok'
          ? await check(async () => {
              const pending = await pendingMigrations(c.db);
              return pending.length === 0 ? 'ok' : `pending: ${pending.join(', ')}`;
            })
          : 'unknown: the database does not answer';
      const scheduler = c.scheduler.isRunning() ? 'ok' : 'not running';
      const checks = { database, migrations, scheduler };
      const ready = Object.values(checks).every((v) => v === 'ok');
      if (!ready) reply.code(503).header('retry-after', '5');
      return { status: ready ? ('ready' as const) : ('not_ready' as const), checks };
    },
  );
