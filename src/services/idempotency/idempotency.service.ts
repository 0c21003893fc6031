import { createHash } from 'node:crypto';
import type { Kysely, Transaction as Trx } from 'kysely';
import type { Clock } from '../../domain/clock.ts';
import { DomainError } from '../../domain/errors/domain-error.ts';
import type { DB } from '../../db/schema.ts';

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

/** Thrown inside the command's transaction when the key already has a committed answer: rolls it back. */
class AlreadyAnswered extends Error {}

/**
 * The one idempotency mechanism: (scope, account, key) with the hash of the body. The same key with
 * the same body replays the stored answer; with another body it answers 422.
 *
 * Liveness, not age, decides who owns a key: the key's row is written only by the command's own
 * transaction, together with its effects (`commit`). There is no reservation outside it, so a crash
 * leaves nothing to take over, and a duplicate running at the same time blocks on the unique index
 * (or on the rows the first holds) until the first commits or rolls back; its own transaction then
 * finds the committed answer, rolls back everything it did, and replays that answer. Only
 * successful answers are stored: a refused request moved nothing, so a retry runs again.
 */
export function createIdempotency(deps: { db: Kysely<DB>; clock: Clock }) {
  /** The committed answer for the key, if any (422 when it was given for another body). */
  async function storedAnswer(scope: string, accountId: number, key: string, hash: string): Promise<IdempotentAnswer<unknown> | undefined> {
    const row = await deps.db
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('scope', '=', scope)
      .where('account_id', '=', accountId)
      .where('key', '=', key)
      .executeTakeFirst();
    // A row without an answer is a reservation left by an older version of this service: nothing
    // committed behind it, and the next answer for the key replaces it.
    if (!row || row.status_code === null) return undefined;
    if (row.body_hash !== hash) throw new DomainError('IDEMPOTENCY_KEY_REUSED', { idempotencyKey: key });
    return { status: row.status_code, body: row.response, replayed: true };
  }

  async function run<T>(
    request: { scope: string; accountId: number; key: string; body: unknown },
    command: (commit: Commit) => Promise<{ status: number; body: T }>,
  ): Promise<IdempotentAnswer<T>> {
    const { scope, accountId, key } = request;
    const hash = bodyHash(request.body);
    const stored = await storedAnswer(scope, accountId, key, hash);
    if (stored) return stored as IdempotentAnswer<T>;
    const commit: Commit = async (trx, status, body) => {
      const now = deps.clock.now();
      const written = await trx
        .insertInto('idempotency_keys')
        .values({ scope, account_id: accountId, key, body_hash: hash, status_code: status, response: JSON.stringify(body), created_at: now, updated_at: now })
        .onConflict((oc) =>
          oc
            .columns(['scope', 'account_id', 'key'])
            .doUpdateSet({ body_hash: hash, status_code: status, response: JSON.stringify(body), created_at: now, updated_at: now })
            .where('idempotency_keys.status_code', 'is', null),
        )
        .returning('key')
        .executeTakeFirst();
      // Another request with this key committed first (we waited for it on the unique index).
      if (!written) throw new AlreadyAnswered();
    };
    try {
      const answer = await command(commit);
      return { ...answer, replayed: false };
    } catch (error) {
      // A duplicate that ran beside the first: whatever stopped it (the key's row, or the balance
      // the first one spent), its transaction rolled back and the first one's answer is the answer.
      const winner = await storedAnswer(scope, accountId, key, hash);
      if (winner) return winner as IdempotentAnswer<T>;
      if (error instanceof AlreadyAnswered) throw new DomainError('IDEMPOTENCY_KEY_IN_FLIGHT', { idempotencyKey: key });
      throw error;
    }
  }

  return { run };
}

export type Idempotency = ReturnType<typeof createIdempotency>;
