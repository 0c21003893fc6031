import type { Cents } from '../domain/money.ts';

/**
 * Infractions (MED refund requests) as the PIX network reports them to a provider. A provider
 * adapter turns the network's notices into these calls on the subscribed sink; the MED service is
 * that sink, so a MED reported in production and one simulated in the sandbox follow the same money
 * rules and emit the same events. Codes arrive as the network writes them; the sink validates them.
 */
export interface InfractionNotice {
  accountId: number;
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

/** An infraction moved along its life: analysis started, analysed, withdrawn. */
export interface InfractionNoticeUpdate {
  accountId: number;
  medId: number;
  to: string;
  analysisResult?: string;
  analysisDetails?: string;
}

export interface InfractionSink {
  onInfractionReported(notice: InfractionNotice): Promise<unknown>;
  onInfractionUpdated(update: InfractionNoticeUpdate): Promise<unknown>;
}
