import type { Kysely, Transaction as Trx } from 'kysely';
import type { Clock } from '../domain/clock.ts';
import { DomainError } from '../domain/errors/domain-error.ts';
import { newUuidV4 } from '../domain/ids.ts';
import { cents } from '../domain/money.ts';
import { transactionsRepo, type TransactionRow } from '../db/repos/transactions.repo.ts';
import type { AccountWithFee } from '../db/repos/accounts.repo.ts';
import type { Counterpart, DB } from '../db/schema.ts';
import type { Ledger, SystemAccount } from '../ledger/ledger.ts';
import type { Outbox } from '../webhooks/outbox.ts';
import { transactionEvent } from '../webhooks/payloads/transaction-event.ts';

/**
 * A PIX received with no charge behind it (a sandbox deposit, the receiving side of an on-us
 * payment): a CONFIRMED "Pix in", the account's cash-in fee, the credit and the `cash_in` event, all
 * in the caller's transaction. The receiver comes read with the cash-in fee of the amount received
 * (`accountsRepo.withFee(..., 'cash_in', amount)`).
 */
export function createReceivedPix(deps: { clock: Clock; ledger: Ledger; outbox: Outbox }) {
  return async function receivePix(
    trx: Kysely<DB> | Trx<DB>,
    { account: receiver, amount, fee }: AccountWithFee,
    input: {
      origin: string;
      endToEndId: string;
      pixKey: string;
      description: string | null;
      counterpart: Counterpart;
      /** Where the money comes from: the outside world (sandbox deposit), on-us clearing, a network. */
      from: SystemAccount;
    },
  ): Promise<TransactionRow> {
    if (fee >= amount) throw new DomainError('PIX_INVALID_AMOUNT', undefined, "The receiver's cash-in fee leaves nothing to credit");
    const now = deps.clock.now();
    const tx = await transactionsRepo.insert(trx, {
      transaction_id: newUuidV4(),
      account_id: receiver.id,
      kind: 'PAYMENT',
      status: 'CONFIRMED',
      origin: input.origin,
      external_id: null,
      original_amount: amount,
      fee_amount: fee,
      final_amount: cents(amount - fee),
      end_to_end_id: input.endToEndId,
      pix_key: input.pixKey,
      description: input.description,
      counterpart: JSON.stringify(input.counterpart),
      error_code: null,
      error_message: null,
      parent_id: null,
      scenario: null,
      created_at: now,
      processed_at: now,
      updated_at: now,
    });
    const credited = await deps.ledger.creditOne(trx, { accountId: receiver.id, amount: cents(amount - fee), transactionId: tx.id, reason: input.origin, counter: input.from, fee });
    if (!credited.ok) throw new Error(`credit of received PIX ${tx.id}: ${credited.error}`);
    await deps.outbox.emit(trx, { accountId: receiver.id, type: 'cash_in', transactionId: tx.id, payload: transactionEvent('CashIn', tx) });
    return tx;
  };
}

export type ReceivePix = ReturnType<typeof createReceivedPix>;
