import type { InfractionNotice, InfractionNoticeUpdate, InfractionSink } from '../infractions.ts';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { Clock } from '../../domain/clock.ts';
import { endToEndId } from '../../domain/ids.ts';
import type { OutgoingPayment, PaymentOutcome, PixNetwork } from '../pix-network.ts';
import { isNotFoundKey, lookupSandboxKey } from './key-directory.ts';
import { parseScenario, REJECTIONS } from './scenarios.ts';

/**
 * The simulated network: outcomes come from the payment's scenario (decisions 4.9) after the
 * settlement delay, and from the key directory (4.10). It keeps no state of its own: the
 * transaction row carries the scenario and the submission time, and the payment the holder's
 * document the directory answered, so any instance answers alike and `outcome` needs no database
 * (it runs inside the settlement job's transaction).
 */
/** The simulator: the port, plus the calls by which the simulated network reports infractions. */
export interface SandboxNetwork extends PixNetwork {
  reportInfraction(notice: InfractionNotice): Promise<unknown>;
  updateInfraction(update: InfractionNoticeUpdate): Promise<unknown>;
}

export function createSandboxNetwork(deps: {
  db: Kysely<DB>;
  clock: Clock;
  settlementDelayMs: number;
  institutionIspb: string;
}): SandboxNetwork {
  let infractions: InfractionSink | undefined;

  function dueAt(payment: OutgoingPayment): Date {
    const scenario = parseScenario(payment.scenario ?? undefined, 'cash_out');
    const extra = scenario.outcome === 'settle' ? scenario.extraDelaySeconds * 1000 : 0;
    return new Date(payment.submittedAt.getTime() + deps.settlementDelayMs + extra);
  }

  return {
    ledgerAccount: 'network:sandbox',
    lookupKey: (key, hint) => lookupSandboxKey(deps.db, key, hint),

    subscribeInfractions(sink) {
      infractions = sink;
    },

    /** The simulated network reports an infraction: it reaches the sink as a provider's notice would. */
    async reportInfraction(notice) {
      if (!infractions) throw new Error('no infraction sink subscribed to the sandbox network');
      return infractions.onInfractionReported(notice);
    },

    async updateInfraction(update) {
      if (!infractions) throw new Error('no infraction sink subscribed to the sandbox network');
      return infractions.onInfractionUpdated(update);
    },

    async submit(payment) {
      return { outcomeAt: dueAt(payment) };
    },

    async outcome(payment): Promise<PaymentOutcome> {
      const due = dueAt(payment);
      const now = deps.clock.now();
      if (now < due) return { status: 'pending', checkAgainAt: due };
      const scenario = parseScenario(payment.scenario ?? undefined, 'cash_out');
      if (scenario.outcome === 'reject') {
        return { status: 'rejected', errorCode: scenario.errorCode, errorMessage: scenario.errorMessage };
      }
      if (payment.key) {
        if (isNotFoundKey(payment.key)) return { status: 'rejected', ...REJECTIONS['error:invalid-pix-key']! };
        if (payment.holderDocument && payment.creditorDocument && payment.holderDocument !== payment.creditorDocument) {
          return { status: 'rejected', ...REJECTIONS['error:document-mismatch']! };
        }
      }
      return { status: 'settled', endToEndId: endToEndId('E', deps.institutionIspb, payment.submittedAt) };
    },
  };
}
