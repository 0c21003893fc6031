import { createHash } from 'node:crypto';
import type { Kysely, Transaction as Trx } from 'kysely';
import type { Clock } from '../../domain/clock.ts';
import { DomainError } from '../../domain/errors/domain-error.ts';
import type { DB } from '../../db/schema.ts';

/** A first request abandoned by a crash frees its key after this long. */
const ABANDONED_AFTER_MS = 60_000;

/** Object keys sorted, so the same JSON in another key order hashes alike. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export const bodyHash = (body: unknown) => createHash('sha256').update(canonical(body ?? null)).digest('hex');

export interface IdempotentAnswer<T> {
  status: number;
  body: T;
  /** True when this is the stored answer of an earlier request (`Idempotent-Replayed: true`). */
  replayed: boolean;
}

/** Stores the answer in the command's own transaction, so the answer exists iff its effects do. */
export type Commit = (trx: Trx<DB>, status: number, body: unknown) => Promise<void>;

/**
 * The one idempotency mechanism: (scope, account, key) is reserved with the hash of the body before
 * the command runs. The same key with the same body replays the stored answer; with another body
 * it answers 422; while the first request is still running, 409. Only successful answers are
 * stored: a refused request moved nothing, so its key is freed and a retry runs again.
 */
export function createIdempotency(deps: { db: Kysely<DB>; clock: Clock }) {
  async function reserve(scope: string, accountId: number, key: string, hash: string): Promise<IdempotentAnswer<unknown> | undefined> {
    const now = deps.clock.now();
    const inserted = await deps.db
      .insertInto('idempotency_keys')
      .values({ scope, account_id: accountId, key, body_hash: hash, status_code: null, response: null, created_at: now, updated_at: now })
      .onConflict((oc) => oc.columns(['scope', 'account_id', 'key']).doNothing())
      .returning('key')
      .executeTakeFirst();
    if (inserted) return undefined;
    const row = await deps.db
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('scope', '=', scope)
      .where('account_id', '=', accountId)
      .where('key', '=', key)
      .executeTakeFirst();
    if (!row) return reserve(scope, accountId, key, hash);
    if (row.body_hash !== hash) throw new DomainError('IDEMPOTENCY_KEY_REUSED', { idempotencyKey: key });
    if (row.status_code === null) {
      const takenOver = await deps.db
        .updateTable('idempotency_keys')
        .set({ created_at: now, updated_at: now })
        .where('scope', '=', scope)
        .where('account_id', '=', accountId)
        .where('key', '=', key)
        .where('status_code', 'is', null)
        .where('created_at', '<', new Date(now.getTime() - ABANDONED_AFTER_MS))
        .returning('key')
        .executeTakeFirst();
      if (takenOver) return undefined;
      throw new DomainError('IDEMPOTENCY_KEY_IN_FLIGHT', { idempotencyKey: key });
    }
    return { status: row.status_code, body: row.response, replayed: true };
  }

  async function run<T>(
    request: { scope: string; accountId: number; key: string; body: unknown },
    command: (commit: Commit) => Promise<{ status: number; body: T }>,
  ): Promise<IdempotentAnswer<T>> {
    const { scope, accountId, key } = request;
    const stored = await reserve(scope, accountId, key, bodyHash(request.body));
    if (stored) return stored as IdempotentAnswer<T>;
    const commit: Commit = async (trx, status, body) => {
      await trx
        .updateTable('idempotency_keys')
        .set({ status_code: status, response: JSON.stringify(body), updated_at: deps.clock.now() })
        .where('scope', '=', scope)
        .where('account_id', '=', accountId)
        .where('key', '=', key)
        .execute();
    };
    try {
      const answer = await command(commit);
      return { ...answer, replayed: false };
    } catch (error) {
      await deps.db
        .deleteFrom('idempotency_keys')
        .where('scope', '=', scope)
        .where('account_id', '=', accountId)
        .where('key', '=', key)
        .where('status_code', 'is', null)
        .execute();
      throw error;
    }
  }

  return { run };
}

export type Idempotency = ReturnType<typeof createIdempotency>;
