import type { ExpressionBuilder, Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import type { ReadRouting } from '../db/read-routing.ts';

/** Read-only queries behind the portal's views that no service exposes (each one bounded); the container builds it, the pages never see the database. */
export function createPortalReads(db: Kysely<DB>) {
  return {
    latestTransactions(accountId: number, limit: number) {
      // The (account_id, created_at) index answers this without touching older rows.
      return db.selectFrom('transactions').selectAll().where('account_id', '=', accountId).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
    },

    refundsOf(accountId: number, transactionId: number) {
      return db.selectFrom('transactions').selectAll().where('account_id', '=', accountId).where('parent_id', '=', transactionId).orderBy('id').limit(100).execute();
    },

    medsOf(accountId: number, transactionId: number) {
      return db.selectFrom('meds').selectAll().where('account_id', '=', accountId).where('original_id', '=', transactionId).orderBy('id').limit(100).execute();
    },

    /** The webhook deliveries of a transaction's events, newest first, with the URL they go to. */
    deliveriesOfTransaction(accountId: number, transactionId: number) {
      return db
        .selectFrom('webhook_deliveries as d')
        .innerJoin('events as e', 'e.id', 'd.event_id')
        .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
        .select(['d.id', 'd.event_id', 'd.webhook_id', 'd.status', 'd.attempts', 'd.next_attempt_at', 'd.last_status_code', 'd.last_error', 'd.delivered_at', 'd.created_at', 'e.type', 'w.url'])
        .where('d.account_id', '=', accountId)
        .where('e.transaction_id', '=', transactionId)
        .orderBy('d.id', 'desc')
        .limit(100)
        .execute();
    },

    /**
     * Attempt log of a transaction's events, newest first: the relay's attempts and the resends (a
     * resend belongs to no delivery, so a log row is matched to its delivery by event and webhook).
     */
    attemptsOfTransaction(accountId: number, transactionId: number) {
      return db
        .selectFrom('webhook_logs as l')
        .innerJoin('events as e', 'e.id', 'l.event_id')
        .select(['l.id', 'l.event_id', 'l.webhook_id', 'l.delivery_id', 'l.kind', 'l.attempt', 'l.status_code', 'l.duration_ms', 'l.error', 'l.created_at'])
        .where('l.account_id', '=', accountId)
        .where('e.transaction_id', '=', transactionId)
        .orderBy('l.id', 'desc')
        .limit(500)
        .execute();
    },

    /** The account's latest delivery attempts, with their delivery's state and next retry. */
    recentAttempts(accountId: number, limit: number) {
      return db
        .selectFrom('webhook_logs as l')
        .leftJoin('webhook_deliveries as d', 'd.id', 'l.delivery_id')
        .leftJoin('events as e', 'e.id', 'l.event_id')
        .leftJoin('transactions as t', 't.id', 'e.transaction_id')
        .select(['l.id', 'l.url', 'l.status_code', 'l.duration_ms', 'l.error', 'l.created_at', 'd.status as delivery_status', 'd.next_attempt_at', 't.transaction_id'])
        .where('l.account_id', '=', accountId)
        .orderBy('l.id', 'desc')
        .limit(limit)
        .execute();
    },

    /** Accounts by id, exact document, or a part of the name; newest first. */
    searchAccounts(q: string, limit: number) {
      let query = db.selectFrom('accounts').select(['id', 'name', 'document', 'available']).orderBy('id', 'desc').limit(limit);
      const text = q.trim();
      if (text) {
        const digits = text.replace(/[.\-/\s]/g, '');
        query = query.where((eb) =>
          eb.or([
            eb('name', 'ilike', `%${text.replace(/[\\%_]/g, (m) => `\\${m}`)}%`),
            eb('document', '=', digits),
            ...(/^\d{1,9}$/.test(text) ? [eb('id', '=', Number(text))] : []),
          ]),
        );
      }
      return query.execute();
    },

    async jobSummary() {
      const counts = await db.selectFrom('jobs').select(['status', (eb) => eb.fn.countAll<string>().as('n')]).groupBy('status').execute();
      const failedRows = await db.selectFrom('jobs').select(['id', 'kind', 'attempts', 'last_error', 'updated_at']).where('status', '=', 'failed').orderBy('id', 'desc').limit(25).execute();
      const of = (status: string) => Number(counts.find((r) => r.status === status)?.n ?? 0);
      return { pending: of('pending'), failed: of('failed'), failedRows };
    },

    /**
     * Deliveries that failed at least once and are not delivered (retrying or given up): how many,
     * and the newest. The partial index webhook_deliveries_failing holds exactly these rows.
     */
    async failingDeliveries(limit: number) {
      const failing = (eb: ExpressionBuilder<DB & { d: DB['webhook_deliveries'] }, 'd'>) =>
        eb.or([eb('d.status', '=', 'failed'), eb.and([eb('d.status', '=', 'pending'), eb('d.attempts', '>', 0)])]);
      const [rows, total] = await Promise.all([
        db
          .selectFrom('webhook_deliveries as d')
          .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
          .select(['d.id', 'd.account_id', 'd.status', 'd.attempts', 'd.last_status_code', 'd.last_error', 'd.next_attempt_at', 'w.url'])
          .where(failing)
          .orderBy('d.id', 'desc')
          .limit(limit)
          .execute(),
        db.selectFrom('webhook_deliveries as d').select((eb) => eb.fn.countAll<string>().as('n')).where(failing).executeTakeFirstOrThrow(),
      ]);
      return { rows, total: Number(total.n) };
    },

    /** Charges still waiting for a payer (sandbox tools). */
    pendingCharges(accountId: number, limit: number) {
      return chargeQuery(db, accountId).where('t.status', '=', 'PENDING').orderBy('c.id', 'desc').limit(limit).execute();
    },

    /** Confirmed PIX received by the account (sandbox tools: what a MED can dispute). */
    receivedPix(accountId: number, limit: number) {
      return db
        .selectFrom('transactions')
        .select(['transaction_id', 'end_to_end_id', 'original_amount', 'created_at'])
        .where('account_id', '=', accountId)
        .where('kind', '=', 'PAYMENT')
        .where('status', '=', 'CONFIRMED')
        .where('end_to_end_id', 'is not', null)
        .orderBy('created_at', 'desc')
        .limit(limit)
        .execute();
    },

    /** The account's charges (the transaction's status is the charge's), newest first. */
    chargesOf(accountId: number, limit: number) {
      return chargeQuery(db, accountId).orderBy('c.id', 'desc').limit(limit).execute();
    },

    chargeOf(accountId: number, transactionId: string) {
      if (!/^[0-9a-f-]{36}$/i.test(transactionId)) return Promise.resolve(undefined);
      return chargeQuery(db, accountId).where('t.transaction_id', '=', transactionId.toLowerCase()).executeTakeFirst();
    },
  };
}

export type PortalReads = ReturnType<typeof createPortalReads>;

function chargeQuery(db: Kysely<DB>, accountId: number) {
  return db
    .selectFrom('charges as c')
    .innerJoin('transactions as t', 't.id', 'c.transaction_id')
    .select(['c.id', 'c.txid', 'c.br_code', 'c.expires_at', 'c.amount', 'c.status as charge_status', 'c.updated_at', 't.transaction_id', 't.status', 't.description', 't.created_at', 't.processed_at'])
    .where('c.account_id', '=', accountId);
}

/** The operators' views (every account's data); every other view takes the account id first. */
const OPERATOR_VIEWS = new Set<keyof PortalReads>(['searchAccounts', 'jobSummary', 'failingDeliveries']);

/**
 * The same views on the read replica when it is fresh for the reader (DATABASE_READ_URL,
 * src/db/read-routing.ts): a member's views wait for its account's own writes, the operators' for theirs.
 */
export function createRoutedPortalReads(reads: ReadRouting): PortalReads {
  const routed = {} as Record<keyof PortalReads, unknown>;
  for (const name of Object.keys(createPortalReads(undefined as unknown as Kysely<DB>)) as Array<keyof PortalReads>) {
    routed[name] = (...args: unknown[]) =>
      reads.run(OPERATOR_VIEWS.has(name) ? 'operators' : { accountId: args[0] as number }, (db) => (createPortalReads(db)[name] as (...a: unknown[]) => Promise<unknown>)(...args));
  }
  return routed as PortalReads;
}
