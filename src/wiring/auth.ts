import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import { createAccountService } from '../services/accounts/account.service.ts';
import { createAccessLease } from '../services/auth/access-lease.ts';
import { createBearerAuthenticator } from '../services/auth/bearer-authenticator.ts';
import { createCertificateService } from '../services/auth/certificate.service.ts';
import { createCredentialService } from '../services/auth/credential.service.ts';
import { createFailureLimits } from '../services/auth/failure-limits.ts';
import { loadSecretHashKeys } from '../services/auth/secret-hash-keys.ts';
import { createSecretHasher } from '../services/auth/secret-hash.ts';
import { createSigningKeys } from '../services/auth/signing-keys.ts';
import { createTokenGrantService } from '../services/auth/token-grant.service.ts';
import { createTokenService } from '../services/auth/token.service.ts';
import type { Foundation } from './foundation.ts';

/** Accounts and who may act on them: credentials, certificates, signing keys, tokens, failure limits. */
export async function wireAuth(config: Config, f: Pick<Foundation, 'db' | 'clock' | 'logger' | 'reads'> & { database: Pick<Database, 'listen'> }) {
  const { db, clock, logger } = f;
  const accounts = createAccountService({ db, clock, reads: f.reads });
  /** Whether the bearer guard may use its still-active memory; what revocations wait on (access-lease.ts). */
  const accessLease = createAccessLease({ db, listen: f.database.listen, logger });
  const certificates = createCertificateService({ db, clock, accounts, accessChanges: accessLease });
  const secretHashKeys = await loadSecretHashKeys({ db, clock, configured: config.clientSecretHashKey, warnWhenUnset: config.mode === 'production', logger });
  const secrets = createSecretHasher(secretHashKeys);
  const credentials = createCredentialService({ db, clock, accounts, secrets, accessChanges: accessLease });
  const signingKeys = createSigningKeys({ db, clock });
  await signingKeys.ensure();
  const tokens = createTokenService({ clock, keys: signingKeys, issuer: config.publicUrl });
  /** Failure limits (token routes, admin guard), in the database so every instance shares them; the sandbox never limits a loopback admin. */
  const authFailures = createFailureLimits({ db, clock, family: 'api', loopbackAdminUnlimited: config.mode === 'sandbox' });
  return {
    /** The keys the client-secret hash and the portal's sealed secrets derive from (not exposed by the container). */
    secretHashKeys,
    accounts,
    certificates,
    credentials,
    signingKeys,
    /** Client-secret hashing: keyed (HMAC) for generated secrets, scrypt for chosen ones. */
    secrets,
    tokens,
    tokenGrants: createTokenGrantService({ db, clock, tokens, logger, failures: authFailures, secrets }),
    authFailures,
    /** Verifies account access tokens (the authentication feature provides it). */
    accountTokens: createBearerAuthenticator({ db, tokens, clock, trust: accessLease }),
    /** The still-active memory's lease and the revocations' wait for every instance (access-lease.ts). */
    accessLease,
  };
}
