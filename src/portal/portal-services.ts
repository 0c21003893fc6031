import type { Container } from '../container.ts';
import { advanceSandboxClock } from '../services/sandbox/sandbox-clock.ts';

/**
 * What the portal's pages use: the services and the portal's own read repository, never the
 * database or the rest of the container. app.ts picks them once; every page file receives this.
 */
export function portalServicesOf(c: Container) {
  const sandboxClock = c.sandboxClock;
  return {
    sandboxMode: c.config.mode === 'sandbox',
    /** The member's account's time: its test clock's when it is on one, else the service clock. */
    clock: c.accountClock,
    /** The service (sandbox) clock, shared by every account not on a test clock. */
    serviceClock: c.clock,
    /** Per-account test clocks (the Sandbox page shows and advances the account's clock). */
    testClocks: c.testClocks,
    reads: c.portalReads,
    accounts: c.accounts,
    transactions: c.transactions,
    cashOut: c.payouts.cashOut,
    refunds: c.refunds,
    charges: c.charges,
    meds: c.meds,
    webhooks: c.webhooks,
    webhookTests: c.webhookTests,
    webhookResend: c.webhookResend,
    /** The Events page (issue 29): the account's events with their attempts, and "replay failed since". */
    eventLog: c.eventLog,
    webhookReplay: c.webhookReplay,
    credentials: c.credentials,
    certificates: c.certificates,
    audit: c.audit,
    portalPeople: c.portalPeople,
    portalSessions: c.portalSessions,
    twoFactor: c.portalTwoFactor,
    /** PORTAL_REQUIRE_2FA: who must have two-factor sign-in before anything else. */
    require2fa: c.config.portalRequire2fa,
    suspense: c.suspense,
    /** The simulated network the sandbox tools drive (sandbox mode only). */
    sandboxNetwork: c.sandboxNetwork,
    /** The same rule as POST /sandbox/clock/advance: move, then what fell due happens (absent without a sandbox clock). */
    advanceSandboxClock: sandboxClock
      ? (seconds: number) => advanceSandboxClock({ clock: sandboxClock, store: c.sandboxClockStore, scheduler: c.scheduler, webhookRelay: c.webhookRelay }, seconds)
      : undefined,
  };
}

export type PortalServices = ReturnType<typeof portalServicesOf>;
