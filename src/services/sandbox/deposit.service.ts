import type { Kysely } from 'kysely';
import type { Clock } from '../../domain/clock.ts';
import { isValidCpf, isValidCnpj } from '../../domain/documents.ts';
import { DomainError, ValidationError } from '../../domain/errors/domain-error.ts';
import { endToEndId } from '../../domain/ids.ts';
import type { Cents } from '../../domain/money.ts';
import { accountsRepo } from '../../db/repos/accounts.repo.ts';
import type { TransactionRow } from '../../db/repos/transactions.repo.ts';
import type { DB } from '../../db/schema.ts';
import type { Ledger } from '../../ledger/ledger.ts';
import { bankByIspb } from '../../network/sandbox/banks.ts';
import type { Outbox } from '../../webhooks/outbox.ts';
import { createReceivedPix } from '../received-pix.ts';
import { transact } from '../../db/transact.ts';

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
  const receivePix = createReceivedPix(deps);

  async function deposit(accountId: number, amount: Cents, payer: Payer = DEFAULT_PAYER): Promise<TransactionRow> {
    if (!isValidCpf(payer.document) && !isValidCnpj(payer.document)) {
      throw new ValidationError(['payer.document must be a valid CPF or CNPJ']);
    }
    const bank = bankByIspb(payer.ispb);
    if (!bank) throw new ValidationError(['payer.ispb must be the ISPB of a known PIX participant']);
    return transact(deps.db, async (trx) => {
      const account = await accountsRepo.byId(trx, accountId);
      if (!account) throw new DomainError('NOT_FOUND', undefined, `Account ${accountId} not found`);
      return receivePix(trx, account, {
        amount,
        origin: 'deposit',
        from: 'world',
        endToEndId: endToEndId('E', payer.ispb, deps.clock.now()),
        pixKey: account.pix_key,
        description: null,
        counterpart: {
          name: payer.name,
          document: payer.document,
          bank: { bankISPB: bank.ispb, bankName: bank.name, bankCode: bank.code, accountBranch: null, accountNumber: null },
        },
      });
    });
  }
  return { deposit };
}

export type DepositService = ReturnType<typeof createDepositService>;
