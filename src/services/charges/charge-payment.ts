import type { Kysely, Transaction as Trx } from 'kysely';
import type { Config } from '../../config.ts';
import type { Clock } from '../../domain/clock.ts';
import { DomainError } from '../../domain/errors/domain-error.ts';
import { endToEndId, isUuidV4 } from '../../domain/ids.ts';
import { cents, toBrlNumber, type Cents } from '../../domain/money.ts';
import { accountsRepo } from '../../db/repos/accounts.repo.ts';
import { transactionsRepo, type TransactionRow } from '../../db/repos/transactions.repo.ts';
import type { Counterpart, DB } from '../../db/schema.ts';
import type { Scheduler } from '../../jobs/scheduler.ts';
import type { NetworkClearingAccount } from '../../ledger/chart.ts';
import type { Ledger, SystemAccount } from '../../ledger/ledger.ts';
import { bankByIspb } from '../../domain/banks.ts';
import type { Outbox } from '../../webhooks/outbox.ts';
import { transactionEvent } from '../../webhooks/payloads/transaction-event.ts';
import type { ChargePaidNotice, Payer } from '../../network/pix-network.ts';
import { chargeEventPayload } from './charge-events.ts';
import { CHARGE_JOBS } from './charge-jobs.ts';
import { locationIdOf } from './charge-model.ts';
import { chargesRepo, type ChargeRow } from './charges.repo.ts';
import { transact } from '../../db/transact.ts';

type Db = Kysely<DB> | Trx<DB>;

export type PaymentRefusal = 'NOT_FOUND' | 'NOT_PAYABLE' | 'AMOUNT_MISMATCH';
export type PaymentResult =
  | { ok: true; tx: TransactionRow; charge: ChargeRow }
  /** `charge`: the charge as it stands when refused (after a lost race, as the winner left it). */
  | { ok: false; reason: PaymentRefusal; charge?: ChargeRow };

/** Why a charge cannot be paid, in words a payer understands. */
export function whyNotPayable(charge: ChargeRow, now: Date): string {
  switch (charge.status) {
    case 'CONCLUIDA':
      return 'it was already paid';
    case 'REMOVIDA_PELO_USUARIO_RECEBEDOR':
      return 'it was cancelled by the receiver';
    case 'REMOVIDA_PELO_PSP':
      return 'it has expired or was ended by the payment provider';
    default:
      return charge.expires_at.getTime() <= now.getTime() ? 'it has expired' : `it is ${charge.status}`;
  }
}

/** What happens to a paid charge's splits (charge-splits.ts). */
export interface SplitsAfterPayment {
  afterPayment(trx: Trx<DB>, charge: ChargeRow, tx: TransactionRow): Promise<void>;
}

const EXPIRED_MESSAGE = 'Cobrança expirada sem pagamento.';

/**
 * Paying and ending charges. A payment is one conditional move ATIVA -> CONCLUIDA, so it happens
 * once however many payers race (the loser sees NOT_PAYABLE and changes nothing); then the
 * transaction is confirmed, the account credited net of its cash-in fee and the event written,
 * all in the caller's database transaction.
 */
export function createChargePayments(deps: {
  db: Kysely<DB>;
  clock: Clock;
  config: Config;
  ledger: Ledger;
  outbox: Outbox;
  scheduler: Scheduler;
  splits: SplitsAfterPayment;
  /** Charges paid from another bank arrive through this network's clearing account. */
  networkAccount: NetworkClearingAccount;
}) {
  const { db, clock, config, ledger, outbox } = deps;

  function counterpartOf(payer: Payer): Counterpart {
    const bank = bankByIspb(payer.ispb);
    const ours = payer.ispb === config.institutionIspb;
    return {
      name: payer.name,
      document: payer.document,
      bank: {
        bankISPB: payer.ispb,
        bankName: bank?.name ?? (ours ? config.institutionName : null),
        bankCode: bank?.code ?? null,
        accountBranch: null,
        accountNumber: null,
      },
    };
  }

  async function payInTrx(
    trx: Trx<DB>,
    charge: ChargeRow,
    input: { amount?: Cents; payer: Payer; endToEndId?: string; from: SystemAccount },
  ): Promise<PaymentResult> {
    const now = clock.now();
    if (charge.status !== 'ATIVA' || charge.expires_at.getTime() <= now.getTime()) return { ok: false, reason: 'NOT_PAYABLE', charge };
    const amount = input.amount ?? charge.amount;
    if (amount !== charge.amount && charge.modalidade_alteracao !== 1) return { ok: false, reason: 'AMOUNT_MISMATCH' };
    // The one guard against paying twice: only one caller moves the row out of ATIVA.
    const concluded = await chargesRepo.leaveActive(trx, charge.id, 'CONCLUIDA', now);
    if (!concluded) {
      // Lost a race: the row read above is stale (still ATIVA), so say what the winner made of it.
      return { ok: false, reason: 'NOT_PAYABLE', charge: (await chargesRepo.byId(trx, charge.id)) ?? charge };
    }
    const receiver = await accountsRepo.withFee(trx, charge.account_id, 'cash_in', amount);
    if (!receiver) throw new Error(`charge ${charge.id}: account ${charge.account_id} is missing`);
    // The payment is booked, never refused: a fee above what was paid (fees raised since the charge
    // was created, a smaller amount paid) takes all of it.
    const fee = cents(Math.min(receiver.fee, amount));
    const tx = await chargesRepo.confirmTransaction(trx, charge.transaction_id, {
      amount,
      fee,
      endToEndId: input.endToEndId ?? endToEndId('E', input.payer.ispb, now),
      counterpart: counterpartOf(input.payer),
      at: now,
    });
    if (!tx) throw new Error(`charge ${charge.id} was ATIVA but its transaction was not PENDING`);
    // The payer's bank pays the gross amount; the fee goes to fee revenue, the rest to the account.
    const credited = await ledger.creditOne(trx, { accountId: charge.account_id, amount: cents(amount - fee), transactionId: tx.id, reason: 'charge_paid', counter: input.from, fee });
    if (!credited.ok) throw new Error(`credit of charge ${charge.id}: ${credited.error}`);
    await outbox.emit(trx, { accountId: charge.account_id, type: 'cash_in', transactionId: tx.id, payload: chargeEventPayload(concluded, tx) });
    await deps.splits.afterPayment(trx, concluded, tx);
    return { ok: true, tx, charge: concluded };
  }

  /** A charge of the account by a cash-in transactionId (or numeric id) or a cob txid. */
  async function findForAccount(trx: Db, accountId: number, id: string): Promise<ChargeRow | undefined> {
    if (isUuidV4(id) || /^\d{1,15}$/.test(id)) {
      const tx = await transactionsRepo.findForAccount(trx, accountId, id);
      const charge = tx ? await chargesRepo.byTransaction(trx, tx.id) : undefined;
      if (charge) return charge;
    }
    return chargesRepo.byTxid(trx, accountId, id);
  }

  /** The charge a notice names: by our reference (the charge's transactionId), or as a sandbox caller named it. */
  async function chargeOf(trx: Trx<DB>, ref: ChargePaidNotice['charge']): Promise<ChargeRow | undefined> {
    if ('reference' in ref) {
      const tx = await trx.selectFrom('transactions').select('id').where('transaction_id', '=', ref.reference).executeTakeFirst();
      return tx ? chargesRepo.byTransaction(trx, tx.id) : undefined;
    }
    return findForAccount(trx, ref.accountId, ref.id);
  }

  /**
   * The network's notice that a payer at another bank paid a charge. The same notice again (same
   * end-to-end id) answers the payment it already made and changes nothing.
   */
  async function onChargePaid(notice: ChargePaidNotice): Promise<TransactionRow> {
    return transact(db, async (trx) => {
      const charge = await chargeOf(trx, notice.charge);
      if (!charge) throw new DomainError('NOT_FOUND', undefined, `Charge ${'id' in notice.charge ? notice.charge.id : notice.charge.reference} not found`);
      if (notice.endToEndId !== undefined && charge.status === 'CONCLUIDA') {
        const paid = await transactionsRepo.byId(trx, charge.transaction_id);
        if (paid?.end_to_end_id === notice.endToEndId) return paid;
      }
      const result = await payInTrx(trx, charge, {
        ...(notice.amount !== undefined ? { amount: notice.amount } : {}),
        payer: notice.payer,
        ...(notice.endToEndId !== undefined ? { endToEndId: notice.endToEndId } : {}),
        from: deps.networkAccount,
      });
      if (result.ok) return result.tx;
      if (result.reason === 'AMOUNT_MISMATCH') {
        throw new DomainError('CHARGE_AMOUNT_MISMATCH', { chargeAmount: toBrlNumber(charge.amount) }, 'The charge does not allow another amount (modalidadeAlteracao 0)');
      }
      const current = result.charge ?? charge;
      throw new DomainError('CHARGE_NOT_PAYABLE', { status: current.status }, `The charge cannot be paid: ${whyNotPayable(current, clock.now())}`);
    });
  }

  /** The network refused a charge's payment for good: the charge ends unpaid with the network's code. */
  async function onChargeRejected(reference: string, errorCode: string, errorMessage: string): Promise<void> {
    await transact(db, async (trx) => {
      const charge = await chargeOf(trx, { reference });
      if (!charge) throw new DomainError('NOT_FOUND', undefined, `Charge ${reference} not found`);
      await endUnpaid(trx, charge.id, errorCode, errorMessage);
    });
  }

  /** Ends an ATIVA charge without payment: expiry or a rejection by the simulated network. */
  async function endUnpaid(trx: Trx<DB>, chargeId: number, errorCode: string, errorMessage: string): Promise<void> {
    const now = clock.now();
    const charge = await chargesRepo.leaveActive(trx, chargeId, 'REMOVIDA_PELO_PSP', now);
    if (!charge) return; // paid, cancelled or already ended: nothing to do
    const tx = await transactionsRepo.finishPending(trx, charge.transaction_id, { status: 'ERROR', at: now, errorCode, errorMessage, endToEndId: null });
    // A cash-in notifies its failure (CashIn with the error); the version-2 envelope has no failure type for a cob.
    if (tx && charge.kind === 'cash_in') {
      await outbox.emit(trx, { accountId: charge.account_id, type: 'cash_in', transactionId: tx.id, payload: transactionEvent('CashIn', tx) });
    }
  }

  deps.scheduler.register<{ chargeId: number }>(CHARGE_JOBS.expire, async (trx, job) => {
    await endUnpaid(trx, job.payload.chargeId, 'CHARGE_EXPIRED', EXPIRED_MESSAGE);
  });

  /**
   * On-us (decisions 4.11): another account of this service pays a charge by its location, inside
   * the payer's database transaction (the payouts feature debits the payer in the same one).
   */
  async function payByLocation(
    trx: Trx<DB>,
    input: { url: string; amount: Cents | undefined; payerAccountId: number; payer: Payer; endToEndId: string },
  ): Promise<{ ok: true; receiverTransactionId: number; amount: Cents } | { ok: false; reason: PaymentRefusal }> {
    const locationId = locationIdOf(config.publicHost, input.url);
    const charge = locationId ? await chargesRepo.byLocationId(trx, locationId) : undefined;
    if (!charge) return { ok: false, reason: 'NOT_FOUND' };
    const result = await payInTrx(trx, charge, {
      ...(input.amount !== undefined ? { amount: input.amount } : {}),
      payer: input.payer,
      endToEndId: input.endToEndId,
      from: 'onus_clearing',
    });
    if (!result.ok) return { ok: false, reason: result.reason };
    return { ok: true, receiverTransactionId: result.tx.id, amount: result.tx.original_amount };
  }

  /** The charge at this location, locked, and the account it pays (see OnUsCharges.lockForPayment). */
  async function lockForPayment(trx: Trx<DB>, url: string): Promise<{ accountId: number } | undefined> {
    const locationId = locationIdOf(config.publicHost, url);
    const charge = locationId ? await chargesRepo.byLocationIdForUpdate(trx, locationId) : undefined;
    return charge ? { accountId: charge.account_id } : undefined;
  }

  return { payInTrx, onChargePaid, onChargeRejected, payByLocation, lockForPayment, findForAccount };
}

export type ChargePayments = ReturnType<typeof createChargePayments>;
