import type { Kysely } from 'kysely';
import type { AccountService } from '../accounts/account.service.ts';
import type { DB } from '../../db/schema.ts';
import type { ReadRouting } from '../../db/read-routing.ts';
import { attemptPage, type AttemptFilter } from '../../webhooks/attempts.repo.ts';

/** The attempt log of an account's webhooks (GET /admin/accounts/{id}/webhook-deliveries). */
export function createDeliveryLog(deps: { db: Kysely<DB>; accounts: AccountService; /** The read replica when fresh (read-routing.ts). */ reads?: ReadRouting }) {
  return {
    /** One page of the account's attempts, newest first; an unknown account is a 404. */
    async page(accountId: number, filter: AttemptFilter, asked: { page: number; pageSize: number }) {
      await deps.accounts.get(accountId);
      return deps.reads ? deps.reads.run('operators', (db) => attemptPage(db, accountId, filter, asked)) : attemptPage(deps.db, accountId, filter, asked);
    },
  };
}

export type DeliveryLog = ReturnType<typeof createDeliveryLog>;
