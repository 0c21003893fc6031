import type { Cents } from '../../domain/money.ts';
import type { MedAnalysisResult, MedStatus } from '../../db/schema/refunds.ts';
import type { MedCause } from './med-causes.ts';
import type { MedView } from './med-view.ts';

/** Another bank opened an infraction (a MED refund request) against a PIX the account received. */
export interface InfractionReport {
  accountId: number;
  endToEndId: string;
  cause: MedCause | null;
  description: string | null;
  /** The disputed amount; the whole PIX when absent. */
  amount?: Cents;
  /** The bank that asked; the payer's bank of the disputed PIX when absent. */
  requestingBank?: { ispb: string; name: string };
}

/** The infraction moved along its life (analysis started, analysed, withdrawn). */
export interface InfractionUpdate {
  accountId: number;
  medId: number;
  to: MedStatus;
  analysisResult?: MedAnalysisResult;
  analysisDetails?: string;
}

/**
 * The infraction port: the calls a PIX provider makes when the network reports infractions. The MED
 * service implements it; the sandbox routes (`/sandbox/med`) and, in production, a provider adapter
 * (the PixNetwork implementation, through `InfractionFeed.subscribe`) both feed the same service, so
 * money rules and events are identical whoever reports.
 */
export interface InfractionSink {
  onInfractionReported(report: InfractionReport): Promise<MedView>;
  onInfractionUpdated(update: InfractionUpdate): Promise<MedView>;
}

/** Implemented by a provider adapter that receives infraction notices (polling DICT or a callback). */
export interface InfractionFeed {
  subscribe(sink: InfractionSink): void;
}
