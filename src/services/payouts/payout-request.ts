import type { Transaction as Trx } from 'kysely';
import type { TransactionFamily } from '../../domain/closed-lists.ts';
import type { ErrorCode } from '../../domain/errors/catalogue.ts';
import type { Cents } from '../../domain/money.ts';
import type { AccountRow } from '../../db/repos/accounts.repo.ts';
import type { TransactionRow } from '../../db/repos/transactions.repo.ts';
import type { Counterpart, DB } from '../../db/schema.ts';
import type { PaymentTarget } from '../settlement/settlement.service.ts';
import type { SystemAccount } from '../../ledger/ledger.ts';
import type { DebitOrigin } from './debit-origins.ts';

/*
 * What a payout is asked to do: its own file, because the admission and the batcher read it and the
 * outgoing-payout path that builds them does too (in one file that would be an import cycle).
 */

/** Where a payout goes once admitted and held. */
export type Destination =
  /** Another institution, through the network and the settlement job. */
  | { kind: 'network'; target: PaymentTarget }
  /** A key of one of our accounts: both sides settle now (decisions 4.11). */
  | { kind: 'on_us_key'; receiverAccountId: number; receiverKey: string; creditorDocument: string | null }
  /** A charge of ours, by its BR Code location. */
  | { kind: 'on_us_charge'; url: string; amount: Cents | undefined }
  /** Settled at once against a clearing account (a MED return: the requesting bank is paid by the MED's own flow). */
  | { kind: 'clearing'; counter: SystemAccount };

/** A debit of any origin (DEBIT_ORIGIN_RULES holds each origin's rules): a payout, a refund, a split payout, a MED return. */
export interface PayoutRequest {
  accountId: number;
  origin: DebitOrigin;
  family: TransactionFamily;
  /** The row's public id when the caller needs it beforehand (a refund derives its devolução id from it). */
  transactionId?: string;
  /** Set at admission: a refund's return id (rtrId), made when it is asked. */
  endToEndId?: string;
  /** The row this debit belongs to: a refund's original, a split payout's charge. */
  parentId?: number;
  externalId: string | null;
  amount: Cents;
  description: string | null;
  pixKey: string | null;
  /** Who receives; for an on-us key the receiver account is filled in here. */
  counterpart: Counterpart | ((receiver: AccountRow) => Counterpart);
  scenario: string | null;
  metadata?: Record<string, unknown>;
  destination: Destination;
  /**
   * The caller's idempotency key, when the request has one instead of an externalId (/dict/pix): two
   * requests with one key are one command (never in one batch), and running it again is harmless.
   */
  idempotencyKey?: string;
  /** Runs last in the payout's transaction (e.g. storing the idempotent answer). */
  onCreated?: (trx: Trx<DB>, tx: TransactionRow) => Promise<void>;
  /** The codes this route answers (they differ between the families). */
  codes: {
    duplicate: ErrorCode;
    insufficient: ErrorCode;
  };
}
