import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';

/** Named facts the adapter keeps for operators (provider_state, migration 720). */
export type StateKey = 'webhook_registration' | 'reconciliation';

export async function writeState(db: Kysely<DB>, key: StateKey, value: Record<string, unknown>, at: Date): Promise<void> {
  await db
    .insertInto('provider_state')
    .values({ key, value: JSON.stringify(value), updated_at: at })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: JSON.stringify(value), updated_at: at }))
    .execute();
}

export async function readStates(db: Kysely<DB>): Promise<Partial<Record<StateKey, { value: Record<string, unknown>; updatedAt: Date }>>> {
  const rows = await db.selectFrom('provider_state').selectAll().execute();
  return Object.fromEntries(rows.map((r) => [r.key, { value: r.value, updatedAt: r.updated_at }]));
}

/** Adds what one reconciliation pass asked and finished to the running record. */
export async function recordReconciliation(db: Kysely<DB>, at: Date, pass: { kind: 'payments' | 'charges'; asked: number; finished: number }): Promise<void> {
  const value = { at: at.toISOString(), kind: pass.kind, asked: pass.asked, finished: pass.finished };
  await sql`
    INSERT INTO provider_state (key, value, updated_at) VALUES ('reconciliation', ${JSON.stringify({ ...value, finishedTotal: pass.finished })}::jsonb, ${at})
    ON CONFLICT (key) DO UPDATE SET
      value = ${JSON.stringify(value)}::jsonb || jsonb_build_object('finishedTotal', COALESCE((provider_state.value->>'finishedTotal')::bigint, 0) + ${pass.finished}),
      updated_at = ${at}`.execute(db);
}
