import type { Config } from '../config.ts';
import { systemClock } from '../domain/clock.ts';
import { createPortalReads, createRoutedPortalReads } from '../portal/portal-reads.repo.ts';
import type { AccountService } from '../services/accounts/account.service.ts';
import { createAuditLog } from '../services/audit/audit-log.ts';
import { createFailureLimits } from '../services/auth/failure-limits.ts';
import type { loadSecretHashKeys } from '../services/auth/secret-hash-keys.ts';
import { createPortalPeopleService } from '../services/portal/portal-people.service.ts';
import { createPortalSessionService } from '../services/portal/portal-sessions.service.ts';
import { createSecretSealer } from '../services/portal/secret-sealer.ts';
import { createTwoFactorService } from '../services/portal/two-factor.service.ts';
import type { Foundation } from './foundation.ts';

/**
 * Portal (issue 14): people, sessions, two-factor sign-in and the audit log. Sessions and invitations
 * run on real time: advancing the sandbox clock must not sign anyone out.
 */
export function wirePortal(
  config: Config,
  f: Pick<Foundation, 'db' | 'clock' | 'reads'>,
  parts: { accounts: AccountService; secretHashKeys: Awaited<ReturnType<typeof loadSecretHashKeys>> },
) {
  const { db } = f;
  const audit = createAuditLog({ db, clock: f.clock });
  const portalFailures = createFailureLimits({ db, clock: systemClock, family: 'portal' });
  return {
    audit,
    /** The portal sign-in's failure limits (tests count the password checks they let run). */
    portalFailures,
    portalPeople: createPortalPeopleService({ db, clock: systemClock, accounts: parts.accounts, audit, failures: portalFailures, publicBaseUrl: config.publicUrl }),
    portalSessions: createPortalSessionService({ db, clock: systemClock }),
    // Issue 30: TOTP two-factor sign-in; secrets sealed under a key derived from the client-secret hash key.
    portalTwoFactor: createTwoFactorService({
      db, clock: systemClock, audit, failures: createFailureLimits({ db, clock: systemClock, family: 'portal' }),
      sealer: createSecretSealer(parts.secretHashKeys, 'portal-totp-secret'), issuer: config.institutionName,
    }),
    /** The portal's read-only views no service exposes (the portal gets this, never `db`). */
    portalReads: f.reads.enabled ? createRoutedPortalReads(f.reads) : createPortalReads(f.db),
  };
}
