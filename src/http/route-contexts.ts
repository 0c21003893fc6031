import type { Container } from '../container.ts';

/**
 * What each route family receives: the services its routes use, never the database handle. A family's
 * context is a copy of those members of the container (built by `contextOf`), so a route cannot reach
 * anything else, at compile time or at run time.
 */
/** The database handles: no family may list them (tsc refuses it). */
type NeverToRoutes = 'db' | 'database';

const ACCOUNT_AUTH = ['config', 'accountTokens', 'testClocks'] as const;
const FAMILIES = {
  system: ['config', 'clock', 'metrics', 'drain', 'scheduler', 'signingKeys', 'chargeLocations', 'databaseProbe'],
  api: [...ACCOUNT_AUTH, 'clock', 'accountClock', 'accounts', 'tokenGrants', 'rateLimiter', 'scenarios', 'payouts', 'transactions', 'charges', 'refunds', 'meds', 'webhooks', 'webhookResend', 'eventLog', 'eventStreams', 'webhookReplay', 'drain'],
  bacen: [...ACCOUNT_AUTH, 'clock', 'accountClock', 'accounts', 'scenarios', 'payouts', 'charges', 'refunds'],
  oauth: ['config', 'tokenGrants'],
  admin: [
    'config', 'clock', 'accounts', 'certificates', 'credentials', 'signingKeys', 'audit', 'checkLedger', 'suspense', 'networkStatus',
    'providerNetwork', 'webhooks', 'webhookTests', 'webhookDeliveryLog', 'portalPeople',
    'eventLog', 'eventStreams', 'webhookReplay', 'drain',
  ],
  network: ['providerNetwork'],
  sandbox: [...ACCOUNT_AUTH, 'clock', 'accounts', 'authFailures', 'sandboxNetwork', 'sandboxClock', 'sandboxClockStore', 'scheduler', 'webhookRelay', 'payouts'],
} as const satisfies Record<string, ReadonlyArray<Exclude<keyof Container, NeverToRoutes>>>;

export type RouteFamily = keyof typeof FAMILIES;
export type ContextOf<F extends RouteFamily> = Pick<Container, (typeof FAMILIES)[F][number]>;

/** What the bearer guard needs (src/http/plugins/account-auth.ts). */
export type AccountAuthContext = Pick<Container, (typeof ACCOUNT_AUTH)[number]>;
export type SystemContext = ContextOf<'system'>;
export type ApiContext = ContextOf<'api'>;
export type BacenContext = ContextOf<'bacen'>;
export type OAuthContext = ContextOf<'oauth'>;
export type AdminContext = ContextOf<'admin'>;
export type NetworkContext = ContextOf<'network'>;
export type SandboxContext = ContextOf<'sandbox'>;

/** The family's context: only the members it lists. */
export function contextOf<F extends RouteFamily>(c: Container, family: F): ContextOf<F> {
  return Object.fromEntries(FAMILIES[family].map((key) => [key, c[key]])) as ContextOf<F>;
}
