/**
 * A circuit breaker in front of the provider. Closed: calls pass; after `threshold` failures in a
 * row (timeouts, connection errors, 5xx: the provider's trouble, never its 4xx answers) it opens.
 * Open: calls fail at once until `cooldownMs` has passed. Half-open: one trial call passes; its
 * success closes the circuit, its failure opens it again. One breaker per process.
 */
export type CircuitState = 'closed' | 'open' | 'half_open';

export interface CircuitSnapshot {
  state: CircuitState;
  consecutiveFailures: number;
  openedAt: Date | null;
  /** When an open circuit lets a trial call through. */
  retryAt: Date | null;
  lastFailure: string | null;
}

export class CircuitOpenError extends Error {
  constructor(readonly retryAt: Date) {
    super(`the provider circuit is open until ${retryAt.toISOString()}`);
    this.name = 'CircuitOpenError';
  }
}

export function createCircuitBreaker(options: { threshold: number; cooldownMs: number; now?: () => number }) {
  const now = options.now ?? Date.now;
  let failures = 0;
  let openedAt: number | null = null;
  let trialInFlight = false;
  let lastFailure: string | null = null;

  function state(): CircuitState {
    if (openedAt === null) return 'closed';
    return now() - openedAt >= options.cooldownMs ? 'half_open' : 'open';
  }

  return {
    state,
    /** Lets a call through, or throws CircuitOpenError; a half-open circuit lets one trial call through at a time. */
    enter(): void {
      const s = state();
      if (s === 'closed') return;
      if (s === 'half_open' && !trialInFlight) {
        trialInFlight = true;
        return;
      }
      throw new CircuitOpenError(new Date((openedAt ?? now()) + options.cooldownMs));
    },
    success(): void {
      failures = 0;
      openedAt = null;
      trialInFlight = false;
    },
    failure(reason: string): void {
      failures += 1;
      lastFailure = reason;
      const wasTrial = trialInFlight;
      trialInFlight = false;
      if (wasTrial || failures >= options.threshold) openedAt = now();
    },
    /** A call that let the provider answer something definitive (a 4xx): the trial, if any, is over. */
    neutral(): void {
      if (trialInFlight) {
        trialInFlight = false;
        failures = 0;
        openedAt = null;
      }
    },
    snapshot(): CircuitSnapshot {
      return {
        state: state(),
        consecutiveFailures: failures,
        openedAt: openedAt === null ? null : new Date(openedAt),
        retryAt: openedAt === null ? null : new Date(openedAt + options.cooldownMs),
        lastFailure,
      };
    },
  };
}

export type CircuitBreaker = ReturnType<typeof createCircuitBreaker>;
