import { asyncLocalStorage, requestContext } from '@fastify/request-context';
import type { Clock } from '../../domain/clock.ts';

/**
 * The time of the account being served when it is on a test clock (issue 29 item 3): set for the
 * length of a request once its account is known (`testClocks.enter`), and around a job or a payout
 * batch of such an account. Kept in the request context (AsyncLocalStorage), so what the request
 * causes deep down (ledger postings, events, jobs) reads it without being handed an account.
 */
export interface AccountClockScope {
  readonly clockId: string;
  readonly time: Date;
}

declare module '@fastify/request-context' {
  interface RequestContextData {
    accountClock?: AccountClockScope;
  }
}

/** The test clock of the account being served, if it is on one. */
export function currentAccountClock(): AccountClockScope | undefined {
  return requestContext.get('accountClock');
}

/** Sets the served account's clock for the rest of the current request (its context store). */
export function enterAccountClock(scope: AccountClockScope | undefined): void {
  requestContext.set('accountClock', scope);
}

/**
 * Runs `work` on a given account clock, or on the service clock (`undefined`), whatever the caller's
 * context says; the rest of the context (the trace) stays.
 */
export function withAccountClock<T>(scope: AccountClockScope | undefined, work: () => T): T {
  const store = asyncLocalStorage.getStore() as Record<string, unknown> | undefined;
  if (store === undefined && scope === undefined) return work();
  return asyncLocalStorage.run({ ...(store ?? {}), accountClock: scope } as never, work);
}

/**
 * The clock of the time rules of accounts (charges, refunds, MEDs, limits, the ledger, events): the
 * served account's test clock when it is on one, else `base` (the service clock). Service concerns
 * (tokens, sessions, rate limits, leases, idempotency) keep `base`.
 */
export function accountAwareClock(base: Clock): Clock {
  return {
    now: () => {
      const scope = currentAccountClock();
      return scope ? new Date(scope.time.getTime()) : base.now();
    },
  };
}
