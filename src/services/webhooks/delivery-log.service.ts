import type { Kysely } from 'kysely';
import type { AccountService } from '../accounts/account.service.ts';
import type { DB } from '../../db/schema.ts';
import { attemptPage, type AttemptFilter } from '../../webhooks/attempts.repo.ts';

/** The attempt log of an account's webhooks (GET /admin/accounts/{id}/webhook-deliveries). */
export function createDeliveryLog(deps: { db: Kysely<DB>; accounts: AccountService }) {
  return {
    /** One page of the account's attempts, newest first; an unknown account is a 404. */
    async page(accountId: number, filter: AttemptFilter, asked: { page: number; pageSize: number }) {
      await deps.accounts.get(accountId);
      return attemptPage(deps.db, accountId, filter, asked);
    },
  };
}

export type DeliveryLog = ReturnType<typeof createDeliveryLog>;
