import type { Cents } from '../../domain/money.ts';
import type { MedAnalysisResult, MedStatus } from '../../db/schema/refunds.ts';
import type { MedCause } from './med-causes.ts';

/** What the MED service takes when a MED is opened (by the sandbox routes or a network notice). */
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
  /** The network's own id of the infraction: reported again, it opens nothing more. */
  reference?: string;
}

/** The infraction moved along its life (analysis started, analysed, withdrawn). */
export interface InfractionUpdate {
  accountId: number;
  medId: number;
  to: MedStatus;
  analysisResult?: MedAnalysisResult;
  analysisDetails?: string;
}
