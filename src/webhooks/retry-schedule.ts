/**
 * Decisions section 5: after a failed attempt, the next one comes 5 s, 5 min, 30 min, 2 h, 5 h, 10 h
 * and 10 h later (each jittered by up to 10% either way, so receivers coming back up are not hit by
 * every sender at once); the attempt after the last wait is the final one (8 in all).
 */
export const RETRY_DELAYS_S = [5, 300, 1_800, 7_200, 18_000, 36_000, 36_000] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_S.length + 1;
export const JITTER = 0.1;

/** Milliseconds to wait after failed attempt number `attempt` (1-based), or null when it was the last. */
export function retryDelayMs(attempt: number, random: () => number = Math.random): number | null {
  const base = RETRY_DELAYS_S[attempt - 1];
  if (base === undefined) return null;
  const factor = 1 - JITTER + 2 * JITTER * random();
  return Math.round(base * 1000 * factor);
}
