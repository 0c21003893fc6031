/**
 * Which database failures are "the database cannot serve this request right now" (answered 503 with
 * Retry-After, never 500) and which are retried as a whole transaction (deadlock, serialization).
 */

/** SQLSTATEs of a transaction PostgreSQL aborted only to break a conflict: rerunning it is safe. */
const RETRYABLE_SQLSTATES = new Set(['40P01', '40001']);

/** SQLSTATEs (or classes) meaning the database is unreachable, overloaded or gave up waiting. */
const UNAVAILABLE_SQLSTATES = new Set([
  '57P01', // admin_shutdown: pg_terminate_backend, a restart
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: starting up, in recovery
  '25006', // read_only_sql_transaction: a standby, or a primary demoted by a failover (the connection is dropped, the primary searched again)
  '53300', // too_many_connections
  '57014', // query_canceled: statement_timeout
  '55P03', // lock_not_available: lock_timeout
  '25P03', // idle_in_transaction_session_timeout
  '40P01', // deadlock_detected, once its retries are spent
  '40001', // serialization_failure, once its retries are spent
]);

/** Socket-level failures of the driver (node error codes). */
const UNAVAILABLE_ERRNOS = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/** Messages node-postgres and pg-pool use for a lost or unobtainable connection (they carry no code). */
const UNAVAILABLE_MESSAGES = [
  'Connection terminated',
  'Query read timeout',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
  'Postgres connection has been discarded',
  'terminating connection',
  'Cannot use a pool after calling end on the pool',
];

export class DatabaseUnavailableError extends Error {
  override readonly name = 'DatabaseUnavailableError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

const sqlState = (error: unknown): string | undefined => {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
};

export function isRetryableConflict(error: unknown): boolean {
  const code = sqlState(error);
  return code !== undefined && RETRYABLE_SQLSTATES.has(code);
}

/** True when the failure is the database's availability (or a bounded wait that ran out), not our bug. */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (error instanceof DatabaseUnavailableError) return true;
  const code = sqlState(error);
  if (code !== undefined && (UNAVAILABLE_SQLSTATES.has(code) || code.startsWith('08') || UNAVAILABLE_ERRNOS.has(code))) return true;
  const message = (error as { message?: unknown } | null)?.message;
  if (typeof message === 'string' && UNAVAILABLE_MESSAGES.some((m) => message.includes(m))) return true;
  const cause = (error as { cause?: unknown } | null)?.cause;
  return cause !== undefined && cause !== error && isDatabaseUnavailable(cause);
}

/**
 * True for any failure that came from the database (a SQLSTATE it answered, or the connection to
 * it), as opposed to an exception of our own code (a TypeError, a failed assertion).
 */
export function isDatabaseFailure(error: unknown): boolean {
  const code = sqlState(error);
  return isDatabaseUnavailable(error) || (code !== undefined && /^[0-9A-Z]{5}$/.test(code));
}

/** Seconds a client should wait before retrying a request the database could not serve. */
export const DATABASE_RETRY_AFTER_S = 1;
