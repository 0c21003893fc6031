import type { Kysely, Selectable } from 'kysely';
import type { Clock } from '../../domain/clock.ts';
import { DomainError } from '../../domain/errors/domain-error.ts';
import { cents, type Cents } from '../../domain/money.ts';
import { accountsRepo } from '../../db/repos/accounts.repo.ts';
import type { TransactionRow } from '../../db/repos/transactions.repo.ts';
import type { DB } from '../../db/schema.ts';
import type { SuspenseItemsTable } from '../../db/schema/provider-network.ts';
import { transact } from '../../db/transact.ts';
import type { NetworkClearingAccount } from '../../ledger/chart.ts';
import type { Ledger } from '../../ledger/ledger.ts';
import { bankByIspb } from '../../domain/banks.ts';
import type { UnroutedPixNotice } from '../../network/pix-network.ts';
import type { Outbox } from '../../webhooks/outbox.ts';
import type { ChangeAudit } from '../audit/audit-log.ts';
import type { ReceivePix } from '../received-pix.ts';

export type SuspenseItem = Selectable<SuspenseItemsTable>;
export type ListedSuspenseItem = SuspenseItem & { assigned_transaction_uuid: string | null };

/**
 * Money that reached the pooled account at the provider naming no charge we can credit (a PIX sent
 * straight to the pooled account's key, a payment of a charge that had expired meanwhile): it is
 * real money, so it is booked at once from the network's clearing account to `suspense`, where
 * operators see it (GET /admin/network/suspense, the portal) until one assigns it to an account.
 * Assigning credits the account as a received PIX ("Pix in", its cash-in fee, a `cash_in` event)
 * from `suspense`, once. Both steps are one transaction each, and receiving is idempotent by
 * end-to-end id.
 */
export function createSuspenseService(deps: { db: Kysely<DB>; clock: Clock; ledger: Ledger; outbox: Outbox; receivePix: ReceivePix; network: NetworkClearingAccount }) {
  const { receivePix } = deps;

  async function receive(notice: UnroutedPixNotice): Promise<SuspenseItem> {
    return transact(deps.db, async (trx) => {
      const inserted = await trx
        .insertInto('suspense_items')
        .values({
          end_to_end_id: notice.endToEndId,
          amount: notice.amount,
          payer: JSON.stringify(notice.payer),
          reason: notice.reason,
          charge_reference: notice.chargeReference,
          network: deps.network,
          provider_transaction_id: notice.providerTransactionId,
          received_at: deps.clock.now(),
        })
        .onConflict((oc) => oc.column('end_to_end_id').doNothing())
        .returningAll()
        .executeTakeFirst();
      if (!inserted) return trx.selectFrom('suspense_items').selectAll().where('end_to_end_id', '=', notice.endToEndId).executeTakeFirstOrThrow();
      await deps.ledger.transfer(trx, { from: deps.network, to: 'suspense', amount: notice.amount, transactionId: null, reason: 'suspense_in' });
      return inserted;
    });
  }

  /** A page of items, newest first; an assigned item names the public id of the PIX it became. */
  async function list(filter: { status?: 'OPEN' | 'ASSIGNED'; page: number; size: number }): Promise<{ items: ListedSuspenseItem[]; total: number }> {
    let query = deps.db.selectFrom('suspense_items');
    if (filter.status === 'OPEN') query = query.where('assigned_at', 'is', null);
    if (filter.status === 'ASSIGNED') query = query.where('assigned_at', 'is not', null);
    const [rows, total] = await Promise.all([
      query.selectAll().orderBy('received_at', 'desc').orderBy('id', 'desc').limit(filter.size).offset((filter.page - 1) * filter.size).execute(),
      query.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
    ]);
    const ids = rows.map((r) => r.assigned_transaction_id).filter((id): id is number => id !== null);
    const uuids =
      ids.length === 0
        ? new Map<number, string>()
        : new Map((await deps.db.selectFrom('transactions').select(['id', 'transaction_id']).where('id', 'in', ids).execute()).map((r) => [Number(r.id), r.transaction_id]));
    const items = rows.map((r) => ({ ...r, assigned_transaction_uuid: r.assigned_transaction_id === null ? null : (uuids.get(Number(r.assigned_transaction_id)) ?? null) }));
    return { items, total: Number(total.n) };
  }

  /** What is still waiting for an operator: how many items and how much money. */
  async function open(): Promise<{ count: number; total: Cents }> {
    const row = await deps.db
      .selectFrom('suspense_items')
      .select((eb) => [eb.fn.countAll<string>().as('n'), eb.fn.coalesce(eb.fn.sum<string>('amount'), eb.val('0')).as('total')])
      .where('assigned_at', 'is', null)
      .executeTakeFirstOrThrow();
    return { count: Number(row.n), total: cents(Number(row.total)) };
  }

  async function assign(id: number, accountId: number, audit?: ChangeAudit): Promise<{ item: SuspenseItem; tx: TransactionRow }> {
    return transact(deps.db, async (trx) => {
      const item = await trx.selectFrom('suspense_items').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
      if (!item) throw new DomainError('NOT_FOUND', undefined, `Suspense item ${id} not found`);
      if (item.assigned_at !== null) {
        throw new DomainError('CONFLICT', { assignedAccountId: item.assigned_account_id }, `Suspense item ${id} was already assigned to account ${item.assigned_account_id}`);
      }
      const receiver = await accountsRepo.withFee(trx, accountId, 'cash_in', item.amount);
      if (!receiver) throw new DomainError('NOT_FOUND', { field: 'accountId' }, `accountId: account ${accountId} not found`);
      const payer = item.payer;
      const bank = bankByIspb(payer.ispb);
      const tx = await receivePix(trx, receiver, {
        origin: 'suspense',
        endToEndId: item.end_to_end_id,
        pixKey: receiver.account.pix_key,
        description: null,
        counterpart: {
          name: payer.name,
          document: payer.document || null,
          bank: { bankISPB: payer.ispb, bankName: bank?.name ?? null, bankCode: bank?.code ?? null, accountBranch: null, accountNumber: null },
        },
        from: 'suspense',
      });
      const assigned = await trx
        .updateTable('suspense_items')
        .set({ assigned_account_id: accountId, assigned_transaction_id: tx.id, assigned_at: deps.clock.now() })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow();
      await audit?.(trx, { accountId, target: `suspense:${id}`, after: { amount: item.amount, endToEndId: item.end_to_end_id, transactionId: tx.transaction_id } });
      return { item: assigned, tx };
    });
  }

  return { receive, list, open, assign };
}

export type SuspenseService = ReturnType<typeof createSuspenseService>;
