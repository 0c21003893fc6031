import type { Kysely, Transaction as Trx } from 'kysely';
import type { Clock } from '../../domain/clock.ts';
import { DomainError } from '../../domain/errors/domain-error.ts';
import { endToEndId, newUuidV4 } from '../../domain/ids.ts';
import { cents, toBrlNumber, type Cents } from '../../domain/money.ts';
import { transactionsRepo, type TransactionRow } from '../../db/repos/transactions.repo.ts';
import type { DB } from '../../db/schema.ts';
import type { RefundNature } from '../../db/schema/refunds.ts';
import type { Ledger } from '../../ledger/ledger.ts';
import type { Settlement } from '../settlement/settlement.service.ts';
import { refundsRepo, type RefundRow } from './refunds.repo.ts';
import { isDevolucaoId, refundDeadlinePassed, remainingRefundable } from './refund-rules.ts';
import { transact } from '../../db/transact.ts';
import type { AccountBulkhead } from '../../db/account-bulkhead.ts';

/** What the refund service needs of the one settlement job of outgoing debits (services/settlement). */
export type OutgoingSettlement = Pick<Settlement, 'start'>;

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
  family: 'api' | 'bacen';
  natureza: Extract<RefundNature, 'ORIGINAL' | 'RETIRADA'>;
  /** The X-Sandbox-Scenario value, already accepted by the route (stored for the settlement job). */
  scenario: string | null;
}

export interface RefundResult {
  tx: TransactionRow;
  refund: RefundRow;
  original: TransactionRow;
}

/**
 * Refunds of received PIX by both families (`POST /api/pix/refund-in/{id}` and `PUT
 * /pix/{e2eid}/devolucao/{id}`): one model, one transaction per command. The refund holds like a
 * payout and the settlement job settles or rejects it; the hooks in refund-settlement.ts report it.
 */
export function createRefundService(deps: {
  db: Kysely<DB>;
  clock: Clock;
  ledger: Ledger;
  institutionIspb: string;
  settlement: OutgoingSettlement;
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
      const original = await findOriginal(trx, cmd.accountId, cmd.original);
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
      const rtrId = endToEndId('D', deps.institutionIspb, now);
      const row = {
        transaction_id: transactionId,
        account_id: cmd.accountId,
        kind: 'REFUND_IN' as const,
        status: 'PENDING' as const,
        origin: cmd.family === 'api' ? 'refund_in' : 'devolucao',
        family: cmd.family,
        // The devolucao id is unique per original only, so it is not an account-wide externalId.
        external_id: cmd.family === 'api' ? externalId : null,
        // Refunds carry no fee: the payer gets back exactly what is refunded.
        original_amount: cmd.amount,
        fee_amount: cents(0),
        final_amount: cmd.amount,
        end_to_end_id: rtrId,
        pix_key: null,
        description: cmd.description,
        error_code: null,
        error_message: null,
        counterpart: JSON.stringify(original.counterpart),
        parent_id: original.id,
        scenario: cmd.scenario,
        created_at: now,
        processed_at: null,
        updated_at: now,
      };
      let tx: TransactionRow;
      if (row.external_id !== null) {
        const inserted = await transactionsRepo.insertUnlessExternalIdUsed(trx, row);
        if (!inserted.created) {
          throw new DomainError('PIX_REFUND_DUPLICATE_EXTERNAL_ID', {
            externalId: row.external_id,
            existingTransactionId: inserted.row.transaction_id,
          });
        }
        tx = inserted.row;
      } else {
        tx = await transactionsRepo.insert(trx, row);
      }
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
      if (!refund) {
        if (cmd.family === 'bacen') throw new DomainError('DEVOLUCAO_ID_IN_USE', { id: refundId });
        throw new DomainError('PIX_REFUND_DUPLICATE_EXTERNAL_ID', { externalId });
      }
      const refunded = await refundsRepo.reserve(trx, original.id, cmd.amount);
      if (refunded === undefined) {
        const current = (await transactionsRepo.byId(trx, original.id))!;
        throw new DomainError('PIX_REFUND_AMOUNT_EXCEEDS_REFUNDABLE', {
          refundableAmount: toBrlNumber(remainingRefundable(current)),
          requestedAmount: toBrlNumber(cmd.amount),
        });
      }
      const held = await deps.ledger.holdOne(trx, { accountId: cmd.accountId, amount: cmd.amount, transactionId: tx.id, reason: 'refund_hold' });
      if (!held.ok) throw new DomainError('PIX_INSUFFICIENT_BALANCE');
      // The network returns the money to whoever paid the original.
      await deps.settlement.start(trx, tx, { payee: { by: 'refund', originalEndToEndId: original.end_to_end_id!, reason: cmd.description } });
      return { tx, refund, original: { ...original, refunded_amount: refunded } };
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
