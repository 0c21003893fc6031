import type { Kysely } from 'kysely';
import { accountsRepo } from '../../db/repos/accounts.repo.ts';
import type { DB } from '../../db/schema.ts';

type Owner = { accountId: number; keyType: string } | undefined;

/**
 * "Is this PIX key one of ours?" for the payout routes, asked of the database on every call (a key
 * registered a moment ago counts at once), but concurrent calls that arrive in the same event-loop
 * turn share ONE query: under load that is one round trip for many payouts instead of one each.
 */
export function createKeyOwners(deps: { db: Kysely<DB> }) {
  let waiting: Array<{ key: string; resolve: (owner: Owner) => void; reject: (error: unknown) => void }> = [];

  async function flush() {
    const batch = waiting;
    waiting = [];
    try {
      const owners = await accountsRepo.byKeys(deps.db, [...new Set(batch.map((w) => w.key))]);
      for (const w of batch) w.resolve(owners.get(w.key));
    } catch (error) {
      for (const w of batch) w.reject(error);
    }
  }

  return {
    ownerOf(key: string): Promise<Owner> {
      return new Promise((resolve, reject) => {
        waiting.push({ key, resolve, reject });
        if (waiting.length === 1) setImmediate(flush);
      });
    },
  };
}

export type KeyOwners = ReturnType<typeof createKeyOwners>;
