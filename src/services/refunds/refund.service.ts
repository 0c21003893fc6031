import type { Kysely, Transaction as Trx } from 'kysely';
import type { TransactionFamily } from '../../domain/closed-lists.ts';
import type { Clock } from '../../domain/clock.ts';
import { DomainError } from '../../domain/errors/domain-error.ts';
import { endToEndId, newUuidV4 } from '../../domain/ids.ts';
import { toBrlNumber, type Cents } from '../../domain/money.ts';
import { transactionsRepo, type TransactionRow } from '../../db/repos/transactions.repo.ts';
import type { DB } from '../../db/schema.ts';
import type { RefundNature } from '../../db/schema/refunds.ts';
import type { Counterpart } from '../../db/schema.ts';
import type { AdmitDebit } from '../payouts/outgoing-payout.ts';
import { refundsRepo, type RefundRow } from './refunds.repo.ts';
import { isDevolucaoId, refundDeadlinePassed, remainingRefundable } from './refund-rules.ts';
import { transact } from '../../db/transact.ts';
import type { AccountBulkhead } from '../../db/account-bulkhead.ts';

/** Which original: by the public family's id (numeric or transactionId) or by end-to-end id. */
export type OriginalRef = { by: 'id'; id: string } | { by: 'endToEndId'; endToEndId: string };

export interface RefundCommand {
  accountId: number;
  original: OriginalRef;
  amount: Cents;
  /** The public family's reason, or the devolucao's descricao. */
  description: string | null;
  /** Public family: the optional externalId. Compatible family: the devolucao id. */
  refundId: string | undefined;
  family: TransactionFamily;
  natureza: Extract<RefundNature, 'ORIGINAL' | 'RETIRADA'>;
  /** The X-Sandbox-Scenario value, already accepted by the route (stored for the settlement job). */
  scenario: string | null;
  /** Writes alongside the refund, in its transaction (the portal's audit record of who asked). */
  record?: (trx: Trx<DB>, result: RefundResult) => Promise<unknown>;
}

export interface RefundResult {
  tx: TransactionRow;
  refund: RefundRow;
  original: TransactionRow;
}

/**
 * Refunds of received PIX by both families (`POST /api/pix/refund-in/{id}` and `PUT
 * /pix/{e2eid}/devolucao/{id}`): one model, one transaction per command. The refund reserves its
 * amount on the original, then goes through the one debit admission like a payout; the settlement
 * job settles or rejects it; the hooks in refund-settlement.ts report it.
 */
export function createRefundService(deps: {
  db: Kysely<DB>;
  clock: Clock;
  institutionIspb: string;
  /** Admits, holds and schedules the refund like every debit (balance, duplicates, hold, step). */
  admitDebit: AdmitDebit;
  /** At most a few refunds of one account hold a pooled connection at once (account-bulkhead.ts). */
  bulkhead?: AccountBulkhead;
}) {
  async function findOriginal(db: Kysely<DB> | Trx<DB>, accountId: number, ref: OriginalRef) {
    const tx =
      ref.by === 'id'
        ? await transactionsRepo.findForAccount(db, accountId, ref.id)
        : await refundsRepo.receivedByEndToEndId(db, accountId, ref.endToEndId);
    // Only a received PIX that arrived can be refunded; anything else is "not found" to the caller.
    if (!tx || tx.kind !== 'PAYMENT' || tx.status !== 'CONFIRMED') {
      throw new DomainError('NOT_FOUND', undefined, 'Original transaction not found, or not a received PIX');
    }
    return tx;
  }

  async function create(cmd: RefundCommand): Promise<RefundResult> {
    return deps.bulkhead ? deps.bulkhead.run(cmd.accountId, (turn) => createNow(cmd, turn.lockTimeoutMs)) : createNow(cmd, undefined);
  }

  async function createNow(cmd: RefundCommand, lockTimeoutMs: number | undefined): Promise<RefundResult> {
    const now = deps.clock.now();
    return transact(deps.db, async (trx) => {
      // The original first (transaction rows come before accounts in the one lock order): every
      // refund and MED return of one PIX waits here for the one before it, then sees what it did.
      const found = await findOriginal(trx, cmd.accountId, cmd.original);
      const original = await transactionsRepo.byIdForUpdate(trx, found.id);
      if (!original || original.status !== 'CONFIRMED') throw new DomainError('NOT_FOUND', undefined, 'Original transaction not found, or not a received PIX');
      if (refundDeadlinePassed(original, now)) {
        throw new DomainError(cmd.family === 'api' ? 'PIX_REFUND_DEADLINE_EXCEEDED' : 'DEVOLUCAO_DEADLINE_EXCEEDED', {
          receivedAt: (original.processed_at ?? original.created_at).toISOString(),
        });
      }
      const transactionId = newUuidV4();
      // The devolução id (`[a-zA-Z0-9]{1,35}`): the client's id when it is one, otherwise the
      // service's own (the transactionId without hyphens, 32 alphanumerics), which a devolucao GET
      // can use; the public family's externalId stays as the client sent it.
      const refundId = cmd.refundId !== undefined && isDevolucaoId(cmd.refundId) ? cmd.refundId : transactionId.replaceAll('-', '');
      const externalId = cmd.refundId ?? refundId;
      // The devolucao id is unique per original only, so it is not an account-wide externalId.
      const accountExternalId = cmd.family === 'api' ? externalId : null;
      const idInUse = () =>
        cmd.family === 'bacen' ? new DomainError('DEVOLUCAO_ID_IN_USE', { id: refundId }) : new DomainError('PIX_REFUND_DUPLICATE_EXTERNAL_ID', { externalId });
      // Duplicates answer before the amount, as they always did (a retry of a refund that took the
      // whole PIX is told it is a duplicate); under the original's lock these reads are exact for
      // this original, and the unique indexes decide the rest below.
      if (accountExternalId !== null) {
        const existing = await transactionsRepo.byExternalId(trx, cmd.accountId, accountExternalId);
        if (existing) throw new DomainError('PIX_REFUND_DUPLICATE_EXTERNAL_ID', { externalId: accountExternalId, existingTransactionId: existing.transaction_id });
      }
      if (await refundsRepo.byRefundId(trx, original.id, refundId)) throw idInUse();
      const refunded = await refundsRepo.reserve(trx, original.id, cmd.amount);
      if (refunded === undefined) {
        throw new DomainError('PIX_REFUND_AMOUNT_EXCEEDS_REFUNDABLE', {
          refundableAmount: toBrlNumber(remainingRefundable(original)),
          requestedAmount: toBrlNumber(cmd.amount),
        });
      }
      // The one debit admission (balance, duplicates, the hold, the network's submit step); a
      // refund carries no fee and no limits (DEBIT_ORIGIN_RULES): the payer gets back exactly this.
      const rtrId = endToEndId('D', deps.institutionIspb, now);
      const tx = await deps.admitDebit(trx, {
        accountId: cmd.accountId,
        origin: cmd.family === 'api' ? 'refund_in' : 'devolucao',
        family: cmd.family,
        transactionId,
        externalId: accountExternalId,
        amount: cmd.amount,
        description: cmd.description,
        pixKey: null,
        counterpart: original.counterpart as Counterpart,
        scenario: cmd.scenario,
        endToEndId: rtrId,
        parentId: original.id,
        // The network returns the money to whoever paid the original.
        destination: { kind: 'network', target: { payee: { by: 'refund', originalEndToEndId: original.end_to_end_id!, reason: cmd.description } } },
        codes: { duplicate: 'PIX_REFUND_DUPLICATE_EXTERNAL_ID', insufficient: 'PIX_INSUFFICIENT_BALANCE' },
      });
      const refund = await refundsRepo.insertUnlessIdUsed(trx, {
        transaction_id: tx.id,
        original_id: original.id,
        account_id: cmd.accountId,
        refund_id: refundId,
        rtr_id: rtrId,
        natureza: cmd.natureza,
        description: cmd.description,
        created_at: now,
      });
      if (!refund) throw idInUse();
      const result = { tx, refund, original: { ...original, refunded_amount: refunded } };
      await cmd.record?.(trx, result);
      return result;
    }, { lockTimeoutMs });
  }

  /** A devolucao by the original's end-to-end id and the client's id (GET of the compatible family). */
  async function findDevolucao(accountId: number, e2eid: string, id: string): Promise<{ tx: TransactionRow; refund: RefundRow }> {
    const original = await refundsRepo.receivedByEndToEndId(deps.db, accountId, e2eid);
    const refund = original ? await refundsRepo.byRefundId(deps.db, original.id, id) : undefined;
    const tx = refund ? await transactionsRepo.byId(deps.db, refund.transaction_id) : undefined;
    if (!refund || !tx) throw new DomainError('NOT_FOUND', undefined, 'Devolucao not found');
    return { tx, refund };
  }

  return { create, findDevolucao };
}

export type RefundService = ReturnType<typeof createRefundService>;
