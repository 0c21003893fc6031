import type { Transaction as Trx } from 'kysely';
import type { Clock } from '../../domain/clock.ts';
import { DomainError } from '../../domain/errors/domain-error.ts';
import { newUuidV4 } from '../../domain/ids.ts';
import { feeFor, type Cents } from '../../domain/money.ts';
import { accountsRepo } from '../../db/repos/accounts.repo.ts';
import { transactionsRepo, type TransactionRow } from '../../db/repos/transactions.repo.ts';
import type { Counterpart, DB } from '../../db/schema.ts';
import type { Ledger } from '../../ledger/ledger.ts';
import type { Outbox } from '../../webhooks/outbox.ts';
import { transactionEvent } from '../../webhooks/payloads/transaction-event.ts';

/** This service's own institution, as a counterpart bank. */
export interface Institution {
  ispb: string;
  name: string;
}

export function institutionCounterpart(institution: Institution, holder: { name: string; document: string }): Counterpart {
  return {
    name: holder.name,
    document: holder.document,
    bank: { bankISPB: institution.ispb, bankName: institution.name, bankCode: null, accountBranch: null, accountNumber: null },
  };
}

/**
 * The receiving side of an on-us payment (decisions 4.11): a CONFIRMED "Pix in" (origin `on_us`)
 * credited to the receiver, with its `cash_in` event, in the payer's transaction. The receiver's
 * cash-in fee applies as to any PIX received.
 */
export function createOnUsCredit(deps: { clock: Clock; ledger: Ledger; outbox: Outbox; institution: Institution }) {
  return async function creditOnUs(
    trx: Trx<DB>,
    input: {
      receiverAccountId: number;
      amount: Cents;
      payer: { name: string; document: string };
      endToEndId: string;
      pixKey: string;
      description: string | null;
    },
  ): Promise<TransactionRow> {
    const receiver = await accountsRepo.byId(trx, input.receiverAccountId);
    if (!receiver) throw new DomainError('PIX_INVALID_PIX_KEY');
    const fee = feeFor(input.amount, { fixed: receiver.fee_cash_in_fixed as Cents, percentBp: receiver.fee_cash_in_percent_bp });
    if (fee >= input.amount) throw new DomainError('PIX_INVALID_AMOUNT', undefined, "The receiver's cash-in fee leaves nothing to credit");
    const now = deps.clock.now();
    const tx = await transactionsRepo.insert(trx, {
      transaction_id: newUuidV4(),
      account_id: receiver.id,
      kind: 'PAYMENT',
      status: 'CONFIRMED',
      origin: 'on_us',
      external_id: null,
      original_amount: input.amount,
      fee_amount: fee,
      final_amount: input.amount - fee,
      end_to_end_id: input.endToEndId,
      pix_key: input.pixKey,
      description: input.description,
      counterpart: JSON.stringify(institutionCounterpart(deps.institution, input.payer)),
      error_code: null,
      error_message: null,
      parent_id: null,
      scenario: null,
      created_at: now,
      processed_at: now,
      updated_at: now,
    });
    const credited = await deps.ledger.creditOne(trx, { accountId: receiver.id, amount: (input.amount - fee) as Cents, transactionId: tx.id, reason: 'on_us' });
    if (!credited.ok) throw new Error(`on-us credit of transaction ${tx.id}: ${credited.error}`);
    await deps.outbox.emit(trx, { accountId: receiver.id, type: 'cash_in', transactionId: tx.id, payload: transactionEvent('CashIn', tx) });
    return tx;
  };
}

export type OnUsCredit = ReturnType<typeof createOnUsCredit>;
