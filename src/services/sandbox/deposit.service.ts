import type { Kysely } from 'kysely';
import type { Clock } from '../../domain/clock.ts';
import { isValidCpf, isValidCnpj } from '../../domain/documents.ts';
import { DomainError, ValidationError } from '../../domain/errors/domain-error.ts';
import { endToEndId, newUuidV4 } from '../../domain/ids.ts';
import { feeFor, type Cents } from '../../domain/money.ts';
import { accountsRepo } from '../../db/repos/accounts.repo.ts';
import { transactionsRepo, type TransactionRow } from '../../db/repos/transactions.repo.ts';
import type { DB } from '../../db/schema.ts';
import type { Ledger } from '../../ledger/ledger.ts';
import { bankByIspb } from '../../network/sandbox/banks.ts';
import { transactionEvent } from '../../webhooks/payloads/transaction-event.ts';
import type { Outbox } from '../../webhooks/outbox.ts';

export interface Payer {
  name: string;
  document: string;
  ispb: string;
}

/** The payer of simulated incoming PIX when the caller names none. */
export const DEFAULT_PAYER: Payer = { name: 'Pagador Sandbox', document: '52998224725', ispb: '00000000' };

/**
 * An incoming PIX to the account's key with no charge behind it (sandbox): a confirmed "Pix in",
 * its credit and its `cash_in` event, in one transaction.
 */
export function createDepositService(deps: { db: Kysely<DB>; clock: Clock; ledger: Ledger; outbox: Outbox }) {
  async function deposit(accountId: number, amount: Cents, payer: Payer = DEFAULT_PAYER): Promise<TransactionRow> {
    if (!isValidCpf(payer.document) && !isValidCnpj(payer.document)) {
      throw new ValidationError(['payer.document must be a valid CPF or CNPJ']);
    }
    const bank = bankByIspb(payer.ispb);
    if (!bank) throw new ValidationError(['payer.ispb must be the ISPB of a known PIX participant']);
    return deps.db.transaction().execute(async (trx) => {
      const account = await accountsRepo.byId(trx, accountId);
      if (!account) throw new DomainError('NOT_FOUND', undefined, `Account ${accountId} not found`);
      const fee = feeFor(amount, { fixed: account.fee_cash_in_fixed as Cents, percentBp: account.fee_cash_in_percent_bp });
      if (fee >= amount) throw new DomainError('PIX_INVALID_AMOUNT', undefined, 'The cash-in fee leaves nothing to credit');
      const now = deps.clock.now();
      const tx = await transactionsRepo.insert(trx, {
        transaction_id: newUuidV4(),
        account_id: accountId,
        kind: 'PAYMENT',
        status: 'CONFIRMED',
        origin: 'deposit',
        original_amount: amount,
        fee_amount: fee,
        final_amount: amount - fee,
        end_to_end_id: endToEndId('E', payer.ispb, now),
        pix_key: account.pix_key,
        counterpart: JSON.stringify({
          name: payer.name,
          document: payer.document,
          bank: { bankISPB: bank.ispb, bankName: bank.name, bankCode: bank.code, accountBranch: null, accountNumber: null },
        }),
        external_id: null,
        description: null,
        error_code: null,
        error_message: null,
        parent_id: null,
        scenario: null,
        created_at: now,
        processed_at: now,
        updated_at: now,
      });
      await deps.ledger.creditOne(trx, { accountId, amount: (amount - fee) as Cents, transactionId: tx.id, reason: 'deposit' });
      await deps.outbox.emit(trx, { accountId, type: 'cash_in', transactionId: tx.id, payload: transactionEvent('CashIn', tx) });
      return tx;
    });
  }
  return { deposit };
}

export type DepositService = ReturnType<typeof createDepositService>;
