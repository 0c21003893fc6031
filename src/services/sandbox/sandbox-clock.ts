import { sql, type Kysely } from 'kysely';
import type { AdjustableClock } from '../../domain/clock.ts';
import type { DB } from '../../db/schema.ts';

/**
 * Keeps the running sandbox clock's lead over real time in the database: `restore` at start-up
 * puts the clock back where the last instance left it (never earlier), `save` after each advance.
 * The lead only grows (GREATEST), so instances sharing one database never move it back.
 */
export function createSandboxClockStore(deps: { db: Kysely<DB>; clock: AdjustableClock }) {
  const lead = () => Math.max(0, deps.clock.now().getTime() - Date.now());

  return {
    async restore(): Promise<void> {
      const { rows } = await sql<{ offset_ms: number | string }>`SELECT offset_ms FROM sandbox_clock WHERE id = 1`.execute(deps.db);
      const stored = rows[0] ? Number(rows[0].offset_ms) : 0;
      if (stored > lead()) deps.clock.set(new Date(Date.now() + stored));
    },
    async save(): Promise<void> {
      const offset = lead();
      await sql`INSERT INTO sandbox_clock (id, offset_ms, updated_at) VALUES (1, ${offset}, ${new Date()})
                ON CONFLICT (id) DO UPDATE SET offset_ms = GREATEST(sandbox_clock.offset_ms, EXCLUDED.offset_ms), updated_at = EXCLUDED.updated_at`.execute(deps.db);
    },
  };
}

/**
 * Moves the sandbox clock forward and makes what fell due happen: the due jobs (expiries,
 * settlements, deadlines), then the webhooks they emitted and the retries now due. One rule for
 * `POST /sandbox/clock/advance` and the portal's sandbox tools. Answers how many jobs ran.
 */
export async function advanceSandboxClock(
  deps: {
    clock: AdjustableClock;
    store: { save(): Promise<void> } | undefined;
    scheduler: { runDue(): Promise<number> };
    webhookRelay: { runDue(): Promise<unknown> };
  },
  seconds: number,
): Promise<number> {
  deps.clock.advance(seconds);
  await deps.store?.save();
  const jobsRun = await deps.scheduler.runDue();
  await deps.webhookRelay.runDue();
  return jobsRun;
}
