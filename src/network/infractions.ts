import type { Cents } from '../domain/money.ts';

/**
 * Infractions (MED refund requests) as the PIX network reports them, through the one sink
 * (`NetworkSink.onInfractionReported`, `onInfractionUpdated`): a MED reported by a provider and
 * one simulated in the sandbox follow the same money rules and emit the same events. Codes arrive
 * as the network writes them; the sink validates them.
 */
export interface InfractionNotice {
  /**
   * The account that received the disputed PIX, when the network names it (the simulator); a
   * provider does not know our accounts: the sink finds it by `endToEndId` among the PIX we received.
   */
  accountId?: number;
  /** The end-to-end id of the disputed PIX. */
  endToEndId: string;
  /** The cause code (decisions 4.6); unknown codes are the sink's to judge. */
  cause: string | null;
  description: string | null;
  /** The disputed amount; the whole PIX when absent. */
  amount?: Cents;
  /** The bank that asked; the payer's bank of the disputed PIX when absent. */
  requestingBank?: { ispb: string; name: string };
  /** The network's own id of the infraction (a provider's MED id): reported again, it opens nothing more. */
  reference?: string;
}

/**
 * An infraction moved along its life: analysis started, analysed, withdrawn. Named by our MED id
 * and its account (the simulator's caller, held to the state machine's steps), or by the network's
 * own id (`reference`: a provider, which tells outcomes only, so our MED walks the steps it skipped).
 */
export type InfractionNoticeUpdate = {
  to: string;
  analysisResult?: string;
  analysisDetails?: string;
} & ({ accountId: number; medId: number } | { reference: string });
