import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';

/** Read-only queries behind the portal's views that no service exposes (each one bounded). */
export const portalReads = {
  latestTransactions(db: Kysely<DB>, accountId: number, limit: number) {
    // The (account_id, created_at) index answers this without touching older rows.
    return db.selectFrom('transactions').selectAll().where('account_id', '=', accountId).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
  },

  refundsOf(db: Kysely<DB>, accountId: number, transactionId: number) {
    return db.selectFrom('transactions').selectAll().where('account_id', '=', accountId).where('parent_id', '=', transactionId).orderBy('id').limit(100).execute();
  },

  medsOf(db: Kysely<DB>, accountId: number, transactionId: number) {
    return db.selectFrom('meds').selectAll().where('account_id', '=', accountId).where('original_id', '=', transactionId).orderBy('id').limit(100).execute();
  },

  /** The webhook deliveries of a transaction's events, newest first, with the URL they go to. */
  deliveriesOfTransaction(db: Kysely<DB>, accountId: number, transactionId: number) {
    return db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('events as e', 'e.id', 'd.event_id')
      .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
      .select(['d.id', 'd.status', 'd.attempts', 'd.next_attempt_at', 'd.last_status_code', 'd.last_error', 'd.delivered_at', 'd.created_at', 'e.type', 'w.url'])
      .where('d.account_id', '=', accountId)
      .where('e.transaction_id', '=', transactionId)
      .orderBy('d.id', 'desc')
      .limit(100)
      .execute();
  },

  /** Attempt log of some deliveries (time, response status, duration), newest first. */
  attemptsOf(db: Kysely<DB>, accountId: number, deliveryIds: number[]) {
    if (deliveryIds.length === 0) return Promise.resolve([]);
    return db
      .selectFrom('webhook_logs')
      .select(['id', 'delivery_id', 'kind', 'attempt', 'url', 'status_code', 'duration_ms', 'error', 'created_at'])
      .where('account_id', '=', accountId)
      .where('delivery_id', 'in', deliveryIds)
      .orderBy('id', 'desc')
      .limit(500)
      .execute();
  },
};
