import type { Cents } from '../../domain/money.ts';
import type { NetworkSink, Payer } from '../pix-network.ts';

/**
 * What the provider's notices and the adapter's checks tell the services. A provider knows our
 * payments and charges by their references (its `externalId`s) and received PIX by end-to-end id,
 * never by our account ids, so on top of the port's sink it needs these: the services resolve
 * which account each one concerns (src/services/network-receipts.ts).
 */

/** Money that reached the pooled account and names no charge we can credit: held in suspense. */
export interface UnroutedPixNotice {
  amount: Cents;
  payer: Payer;
  endToEndId: string;
  /** The provider's id of the PIX it received. */
  providerTransactionId: string | null;
  /** Why it is not credited to a customer: `no_charge`, `charge_not_payable`, `charge_never_stored`, ... */
  reason: string;
  /** The charge it named, if it named one. */
  chargeReference: string | null;
}

/** An infraction (MED) on a PIX we received, named by the network's own id of the infraction. */
export interface ReceivedInfractionNotice {
  reference: string;
  endToEndId: string;
  cause: string | null;
  description: string | null;
  requestingBank?: { ispb: string; name: string };
}

export interface InfractionMove {
  reference: string;
  to: string;
  analysisResult?: string;
  analysisDetails?: string;
}

export interface ProviderSink extends NetworkSink {
  onUnroutedPix(notice: UnroutedPixNotice): Promise<unknown>;
  /** The receiving bank returned (part of) one of our payouts; `endToEndId` is the return's, so it is credited once. */
  onPayoutReturnedByReference(notice: { reference: string; amount: Cents; endToEndId: string | null }): Promise<unknown>;
  onInfractionOnReceived(notice: ReceivedInfractionNotice): Promise<unknown>;
  onInfractionMoved(move: InfractionMove): Promise<unknown>;
}
