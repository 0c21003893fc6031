import type { Kysely } from 'kysely';
import { accountsRepo } from '../../db/repos/accounts.repo.ts';
import type { DB } from '../../db/schema.ts';
import { createSharedLookup } from '../../db/shared-lookup.ts';

/**
 * "Is this PIX key one of ours?" for the payout routes, asked of the database on every call (a key
 * registered a moment ago counts at once); concurrent calls in one event-loop turn share one query.
 */
export function createKeyOwners(deps: { db: Kysely<DB> }) {
  return { ownerOf: createSharedLookup((keys: string[]) => accountsRepo.byKeys(deps.db, keys)) };
}

export type KeyOwners = ReturnType<typeof createKeyOwners>;
