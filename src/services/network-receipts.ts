import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { DomainError } from '../domain/errors/domain-error.ts';
import type { DB } from '../db/schema.ts';
import type { InfractionSink } from '../network/infractions.ts';
import type { InfractionMove, ProviderSink, ReceivedInfractionNotice } from '../network/provider/provider-sink.ts';
import type { Cents } from '../domain/money.ts';
import type { SuspenseService } from './suspense/suspense.service.ts';

/**
 * The provider's notices name our payments by reference and received PIX by end-to-end id, never
 * our accounts: this finds the account each one concerns and hands it to the feature that owns it
 * (payout returns to the payouts feature, infractions to MED, money naming no charge to suspense).
 * A notice about something we do not have changes nothing and says so (its outcome is recorded).
 */
export function createNetworkReceipts(deps: {
  db: Kysely<DB>;
  logger: Logger;
  suspense: SuspenseService;
  returnPayout(accountId: number, reference: string, amount: Cents, endToEndId?: string): Promise<unknown>;
  infractions: InfractionSink;
}): Pick<ProviderSink, 'onUnroutedPix' | 'onPayoutReturnedByReference' | 'onInfractionOnReceived' | 'onInfractionMoved'> {
  return {
    onUnroutedPix: (notice) => deps.suspense.receive(notice),

    async onPayoutReturnedByReference({ reference, amount, endToEndId }) {
      const payout = await deps.db.selectFrom('transactions').select(['account_id', 'kind']).where('transaction_id', '=', reference).executeTakeFirst();
      if (!payout || payout.kind !== 'WITHDRAW') {
        deps.logger.warn({ reference }, 'the provider returned a payout we do not have');
        return undefined;
      }
      return deps.returnPayout(payout.account_id, reference, amount, endToEndId ?? undefined);
    },

    async onInfractionOnReceived(notice: ReceivedInfractionNotice) {
      const received = await deps.db
        .selectFrom('transactions')
        .select('account_id')
        .where('end_to_end_id', '=', notice.endToEndId)
        .where('kind', '=', 'PAYMENT')
        .where('status', '=', 'CONFIRMED')
        .executeTakeFirst();
      if (!received) {
        // Money still in suspense (or never ours): no customer to open it against yet.
        deps.logger.warn({ reference: notice.reference, endToEndId: notice.endToEndId }, 'the provider reported a MED on a PIX no account of ours received');
        return undefined;
      }
      return deps.infractions.onInfractionReported({
        accountId: received.account_id,
        endToEndId: notice.endToEndId,
        cause: notice.cause,
        description: notice.description,
        reference: notice.reference,
        ...(notice.requestingBank ? { requestingBank: notice.requestingBank } : {}),
      });
    },

    /**
     * The provider tells only outcomes (accepted, rejected); our MED walks the same path its state
     * machine allows (OPEN -> RECEIVED -> ANALYZED). A move already made changes nothing.
     */
    async onInfractionMoved(move: InfractionMove) {
      const med = await deps.db.selectFrom('meds').select(['id', 'account_id', 'status']).where('network_reference', '=', move.reference).executeTakeFirst();
      if (!med) {
        deps.logger.warn({ reference: move.reference }, 'the provider moved a MED we never opened');
        return undefined;
      }
      if (med.status === move.to || med.status === 'CANCELLED' || med.status === 'ANALYZED') return undefined;
      const step = (to: string, extra: Partial<InfractionMove> = {}) =>
        deps.infractions.onInfractionUpdated({ accountId: med.account_id, medId: med.id, to, ...extra }).catch((error: unknown) => {
          // Another delivery moved it first: the state machine refuses the repeat, which is fine.
          if (error instanceof DomainError && error.code === 'MED_INVALID_TRANSITION') return undefined;
          throw error;
        });
      if (move.to === 'ANALYZED' && med.status === 'OPEN') await step('RECEIVED');
      return step(move.to, {
        ...(move.analysisResult !== undefined ? { analysisResult: move.analysisResult } : {}),
        ...(move.analysisDetails !== undefined ? { analysisDetails: move.analysisDetails } : {}),
      });
    },
  };
}
