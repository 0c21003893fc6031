import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { DomainError } from '../domain/errors/domain-error.ts';
import type { Cents } from '../domain/money.ts';
import type { DB } from '../db/schema.ts';
import type { TransactionRow } from '../db/repos/transactions.repo.ts';
import type { NetworkClearingAccount } from '../ledger/chart.ts';
import type { InfractionNoticeUpdate } from '../network/infractions.ts';
import type { NetworkSink } from '../network/pix-network.ts';
import type { ChargePayments } from './charges/charge-payment.ts';
import type { MedService } from './med/med.service.ts';
import type { DepositService } from './sandbox/deposit.service.ts';
import type { Settlement } from './settlement/settlement.service.ts';
import type { SuspenseService } from './suspense/suspense.service.ts';
import { isFinalMedStatus } from './med/med-state-machine.ts';

/**
 * The one sink of whatever network adapter runs (the container subscribes it once): each notice
 * goes to the feature that owns it (outcomes to settlement, charges paid to charge payments, money
 * naming no charge to suspense, payout returns to the payouts feature, infractions to MED). A
 * notice that names an account (the simulator's) goes straight there; one that names only our
 * reference or an end-to-end id (a provider's) is resolved to its account here first. A notice
 * about something we do not have changes nothing and says so (undefined).
 */
export function createNetworkSink(deps: {
  db: Kysely<DB>;
  logger: Logger;
  /** The running adapter's clearing account: where money received comes from in the books. */
  networkAccount: NetworkClearingAccount;
  settlement: Pick<Settlement, 'onPaymentOutcome'>;
  charges: Pick<ChargePayments, 'onChargePaid' | 'onChargeRejected'>;
  deposits: Pick<DepositService, 'deposit'>;
  suspense: Pick<SuspenseService, 'receive'>;
  returnPayout(accountId: number, payout: string, amount: Cents, endToEndId?: string): Promise<TransactionRow>;
  meds: Pick<MedService, 'sink'>;
}): NetworkSink<TransactionRow> {
  const infractions = deps.meds.sink({ requireReconciled: true });

  /** The provider tells only outcomes (accepted, rejected); our MED walks the steps its state machine allows (OPEN -> RECEIVED -> ANALYZED). */
  async function moveByReference(move: Extract<InfractionNoticeUpdate, { reference: string }>) {
    const med = await deps.db.selectFrom('meds').select(['id', 'account_id', 'status']).where('network_reference', '=', move.reference).executeTakeFirst();
    if (!med) {
      deps.logger.warn({ reference: move.reference }, 'the network moved a MED we never opened');
      return undefined;
    }
    if (med.status === move.to || isFinalMedStatus(med.status)) return undefined;
    const step = (to: string, extra: { analysisResult?: string; analysisDetails?: string } = {}) =>
      infractions.onInfractionUpdated({ accountId: med.account_id, medId: med.id, to, ...extra }).catch((error: unknown) => {
        // Another delivery moved it first: the state machine refuses the repeat, which is fine.
        if (error instanceof DomainError && error.code === 'MED_INVALID_TRANSITION') return undefined;
        throw error;
      });
    if (move.to === 'ANALYZED' && med.status === 'OPEN') await step('RECEIVED');
    return step(move.to, {
      ...(move.analysisResult !== undefined ? { analysisResult: move.analysisResult } : {}),
      ...(move.analysisDetails !== undefined ? { analysisDetails: move.analysisDetails } : {}),
    });
  }

  return {
    onPaymentOutcome: (reference, outcome) => deps.settlement.onPaymentOutcome(reference, outcome),
    onChargePaid: (notice) => deps.charges.onChargePaid(notice),
    onChargeRejected: (reference, errorCode, errorMessage) => deps.charges.onChargeRejected(reference, errorCode, errorMessage),
    onPixReceived: (notice) =>
      deps.deposits.deposit(notice.accountId, notice.amount, notice.payer, notice.endToEndId, notice.minted ? 'world' : deps.networkAccount),
    onUnroutedPix: (notice) => deps.suspense.receive(notice),

    async onPayoutReturned({ payout, amount, endToEndId }) {
      if ('accountId' in payout) return deps.returnPayout(payout.accountId, payout.id, amount, endToEndId ?? undefined);
      const found = await deps.db.selectFrom('transactions').select(['account_id', 'kind']).where('transaction_id', '=', payout.reference).executeTakeFirst();
      if (!found || found.kind !== 'WITHDRAW') {
        deps.logger.warn({ reference: payout.reference }, 'the network returned a payout we do not have');
        return undefined;
      }
      return deps.returnPayout(found.account_id, payout.reference, amount, endToEndId ?? undefined);
    },

    async onInfractionReported(notice) {
      if (notice.accountId !== undefined) return infractions.onInfractionReported({ ...notice, accountId: notice.accountId });
      const received = await deps.db
        .selectFrom('transactions')
        .select('account_id')
        .where('end_to_end_id', '=', notice.endToEndId)
        .where('kind', '=', 'PAYMENT')
        .where('status', '=', 'CONFIRMED')
        .executeTakeFirst();
      if (!received) {
        // Money still in suspense (or never ours): no customer to open it against yet.
        deps.logger.warn({ reference: notice.reference, endToEndId: notice.endToEndId }, 'the network reported a MED on a PIX no account of ours received');
        return undefined;
      }
      return infractions.onInfractionReported({ ...notice, accountId: received.account_id });
    },

    onInfractionUpdated: (update) => ('reference' in update ? moveByReference(update) : infractions.onInfractionUpdated(update)),
  };
}
