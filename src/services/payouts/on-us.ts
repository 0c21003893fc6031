import type { Transaction as Trx } from 'kysely';
import type { Clock } from '../../domain/clock.ts';
import { DomainError } from '../../domain/errors/domain-error.ts';
import type { Cents } from '../../domain/money.ts';
import { accountsRepo } from '../../db/repos/accounts.repo.ts';
import type { TransactionRow } from '../../db/repos/transactions.repo.ts';
import type { ReceivePix } from '../received-pix.ts';
import type { Counterpart, DB } from '../../db/schema.ts';

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
export function createOnUsCredit(deps: { clock: Clock; receivePix: ReceivePix; institution: Institution }) {
  const { receivePix } = deps;
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
    const receiver = await accountsRepo.withFee(trx, input.receiverAccountId, 'cash_in', input.amount);
    if (!receiver) throw new DomainError('PIX_INVALID_PIX_KEY');
    return receivePix(trx, receiver, {
      origin: 'on_us',
      from: 'onus_clearing',
      endToEndId: input.endToEndId,
      pixKey: input.pixKey,
      description: input.description,
      counterpart: institutionCounterpart(deps.institution, input.payer),
    });
  };
}

export type OnUsCredit = ReturnType<typeof createOnUsCredit>;
