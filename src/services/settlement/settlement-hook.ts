import type { Transaction as Trx } from 'kysely';
import type { TransactionRow } from '../../db/repos/transactions.repo.ts';
import type { DB } from '../../db/schema.ts';
import type { OutgoingEvent } from '../../webhooks/outbox.ts';

/**
 * What each origin does once its payment settled or was rejected (undo its counters, ...), in the
 * finishing transaction; it answers the events to emit, which a finished batch writes in one statement.
 */
export interface SettlementHook {
  onFinished(trx: Trx<DB>, tx: TransactionRow): Promise<OutgoingEvent[]>;
  /**
   * Once per finished batch, after every row's `onFinished` and before any balance moves, with all
   * the batch's rows whose origin this hook object is the settlement of: for writes whose row locks
   * must be taken for the whole batch at once in key order (the limit counters), so that two
   * batches, or a batch and a payout admission, never take them in opposite orders.
   */
  onBatchFinished?(trx: Trx<DB>, rows: TransactionRow[]): Promise<void>;
}
