import { sql, type Kysely } from 'kysely';
import { paginate } from '../db/paginate.ts';
import type { DB, EventType } from '../db/schema.ts';

/** An attempt's outcome: `delivered` (a 2xx answer) or `failed` (any other answer, or none). */
export const ATTEMPT_STATUSES = ['delivered', 'failed'] as const;
export type AttemptStatus = (typeof ATTEMPT_STATUSES)[number];

export interface AttemptFilter {
  status?: AttemptStatus | undefined;
  event?: EventType | undefined;
}

/**
 * One page of an account's webhook attempts, newest first: the relay's deliveries, resends and test
 * deliveries, each with its event, transaction and, for the latest attempt of a delivery still being
 * retried, when the next attempt is due.
 */
export function attemptPage(db: Kysely<DB>, accountId: number, filter: AttemptFilter, asked: { page: number; pageSize: number }) {
  let query = db
    .selectFrom('webhook_logs as l')
    .leftJoin('events as e', 'e.id', 'l.event_id')
    .leftJoin('transactions as t', 't.id', 'e.transaction_id')
    .leftJoin('webhook_deliveries as d', 'd.id', 'l.delivery_id')
    .select([
      'l.id',
      'l.kind',
      'l.attempt',
      'l.url',
      'l.webhook_id',
      'l.status_code',
      'l.duration_ms',
      'l.response_excerpt',
      'l.error',
      'l.created_at',
      'e.event_id',
      't.transaction_id',
      'd.status as delivery_status',
      'd.attempts as delivery_attempts',
      'd.next_attempt_at',
      sql<EventType | null>`COALESCE(l.event_type, e.type)`.as('event'),
    ])
    .where('l.account_id', '=', accountId)
    .orderBy('l.id', 'desc');
  if (filter.event) query = query.where(sql<boolean>`COALESCE(l.event_type, e.type) = ${filter.event}`);
  if (filter.status === 'delivered') query = query.where('l.status_code', '>=', 200).where('l.status_code', '<', 300);
  if (filter.status === 'failed') query = query.where((eb) => eb.or([eb('l.status_code', 'is', null), eb('l.status_code', '<', 200), eb('l.status_code', '>=', 300)]));
  return paginate(query, asked);
}

export type AttemptRow = Awaited<ReturnType<typeof attemptPage>>['rows'][number];
