/**
 * Retry delays with full jitter (a random delay between 0 and the capped exponential step), so
 * many instances retrying the same provider do not arrive together.
 */
export interface BackoffPolicy {
  /** The first step, in milliseconds. */
  baseMs: number;
  /** No delay above this. */
  maxMs: number;
}

/** The delay before retry number `attempt` (1 = the first retry); `random` returns [0, 1). */
export function backoffDelay(attempt: number, policy: BackoffPolicy, random: () => number = Math.random): number {
  const step = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.floor(random() * step);
}
