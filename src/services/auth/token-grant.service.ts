import { prepared } from '../../db/prepared.ts';
import { sql, type Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Clock } from '../../domain/clock.ts';
import { DomainError } from '../../domain/errors/domain-error.ts';
import { isUuidV4 } from '../../domain/ids.ts';
import type { DB } from '../../db/schema.ts';
import { failureKeys, failureTimesOf, tooManyFailures, type FailureKey, type FailureLimits } from './failure-limits.ts';
import { ALL_SCOPES } from './scopes.ts';
import type { SecretHasher } from './secret-hash.ts';
import type { TokenService } from './token.service.ts';
import { parseCertificate, type CertificateInfo } from './x509.ts';

export interface ClientCredentials {
  clientId: string;
  clientSecret: string;
}

/** Who is asking: the network address the wrong-secret counters are kept for. */
export interface Caller {
  address: string;
}

export interface Grant {
  accessToken: string;
  expiresIn: number;
  scopes: string[];
}

/** The client certificate a request presents, and where it comes from (the HTTP layer tells). */
export type PresentedCertificate =
  | { source: 'proxy-header'; header: string | string[] }
  | { source: 'tls-handshake'; pem: string }
  | { source: 'none'; why: 'no-header' | 'untrusted-header' | 'tls-without-certificate' };

const ENCODING_HINT =
  'Send the PEM percent-encoded (RFC 3986, e.g. encodeURIComponent or nginx $ssl_client_escaped_cert): spaces as %20, newlines as %0A, "+" as %2B.';

/**
 * The client-credentials exchange behind both token routes (`/api/auth/token` and `/oauth/token`):
 * certificate checks, then credentials, then the token. Routes check the certificate header first
 * (`readCertificate`), then their own body, then call `grant`, which is decisions 4.15's order.
 */
export function createTokenGrantService(deps: {
  db: Kysely<DB>;
  clock: Clock;
  tokens: TokenService;
  logger: Logger;
  failures: FailureLimits;
  secrets: SecretHasher;
}) {
  const { db, clock } = deps;

  /** The certificate from `X-SSL-Client-Cert`: present, percent-decoded, a real X.509 certificate. */
  function readCertificate(header: string | string[] | undefined): CertificateInfo {
    if (header === undefined || header === '') {
      throw new DomainError(
        'PUB_CERT_HEADER_MISSING',
        { hint: `Send the client certificate in the X-SSL-Client-Cert header. ${ENCODING_HINT}` },
      );
    }
    if (Array.isArray(header)) {
      throw new DomainError('PUB_CERT_MALFORMED_PEM', { hint: 'Send exactly one X-SSL-Client-Cert header.' });
    }
    let pem: string;
    try {
      pem = decodeURIComponent(header);
    } catch {
      throw new DomainError('PUB_CERT_MALFORMED_PEM', { hint: `The header is not valid percent-encoding. ${ENCODING_HINT}` });
    }
    // Form encoding (application/x-www-form-urlencoded) writes spaces as "+": the PEM armour lines,
    // whose only spaces are these, give it away. A "+" inside the base64 body is legitimate (%2B).
    if (/-----(BEGIN|END)\+[A-Z0-9+ ]*-----/.test(pem)) {
      throw new DomainError('PUB_CERT_MALFORMED_PEM', {
        hint: `The certificate looks form-encoded ("+" for spaces, as in "-----BEGIN+CERTIFICATE-----"). ${ENCODING_HINT}`,
      });
    }
    const info = parseCertificate(pem);
    if (!info) {
      throw new DomainError('PUB_CERT_MALFORMED_PEM', {
        hint: `The header does not hold a PEM X.509 certificate (-----BEGIN CERTIFICATE----- ... -----END CERTIFICATE-----). ${ENCODING_HINT}`,
      });
    }
    return info;
  }

  /**
   * The certificate a request presented (see `presentedCertificate` in the HTTP layer): a trusted
   * proxy's header, read as above, or the one proven on the TLS handshake; none is the missing-header
   * code, with a hint saying what to present on that connection.
   */
  function certificateFrom(presented: PresentedCertificate): CertificateInfo {
    if (presented.source === 'proxy-header') return readCertificate(presented.header);
    if (presented.source === 'tls-handshake') {
      const info = parseCertificate(presented.pem);
      if (!info) throw new DomainError('PUB_CERT_MALFORMED_PEM', { hint: 'The certificate presented on the TLS handshake cannot be read.' });
      return info;
    }
    if (presented.why === 'tls-without-certificate') {
      throw new DomainError('PUB_CERT_HEADER_MISSING', {
        hint: 'This is a TLS connection without a client certificate: present it on the handshake (e.g. curl --cert client-cert.pem --key client-key.pem).',
      });
    }
    if (presented.why === 'untrusted-header') {
      throw new DomainError('PUB_CERT_HEADER_MISSING', {
        hint: 'X-SSL-Client-Cert is believed only from a trusted proxy (TRUSTED_PROXIES): connect with mutual TLS, or through the front proxy that checks the certificate.',
      });
    }
    return readCertificate(undefined);
  }

  /** A database failure while looking up the registry or credentials: the store is unreachable. */
  async function fromStore<T>(what: string, lookup: () => Promise<T>): Promise<T> {
    try {
      return await lookup();
    } catch (error) {
      deps.logger.error({ err: error, lookup: what }, 'credential store lookup failed');
      throw new DomainError('PUB_AUTH_UPSTREAM_UNAVAILABLE', {
        hint: 'The credential store cannot be reached right now. Retry with exponential backoff.',
      });
    }
  }

  /**
   * The account of a registered (not revoked) certificate, an active credential, and the failure
   * times of the keys that may judge the attempt, in one statement: a right secret costs no other.
   */
  async function lookupIdentity(fingerprint: string, clientId: string | undefined, keys: { client: FailureKey; certificate: FailureKey; address: FailureKey }) {
    const row = await sql<{
      certificate_account: number | null;
      credential: { account_id: number; secret_hash: string; scopes: string } | null;
      client_failures: number[] | null;
      certificate_failures: number[] | null;
      address_failures: number[] | null;
    }>`
      ${prepared('token_identity')}SELECT
        (SELECT account_id FROM certificates WHERE fingerprint = ${fingerprint} AND revoked_at IS NULL) AS certificate_account,
        (SELECT json_build_object('account_id', account_id, 'secret_hash', secret_hash, 'scopes', scopes)
           FROM credentials WHERE client_id = ${clientId ?? null}::uuid AND revoked_at IS NULL) AS credential,
        ${failureTimesOf(keys.client)} AS client_failures,
        ${failureTimesOf(keys.certificate)} AS certificate_failures,
        ${failureTimesOf(keys.address)} AS address_failures`.execute(db);
    const r = row.rows[0]!;
    return {
      certificateAccountId: r.certificate_account === null ? null : Number(r.certificate_account),
      credential: r.credential === null ? null : { ...r.credential, account_id: Number(r.credential.account_id) },
      seen: new Map([
        [keys.client.key, r.client_failures],
        [keys.certificate.key, r.certificate_failures],
        [keys.address.key, r.address_failures],
      ]),
    };
  }

  /**
   * Validity window, registry, credentials, account link, then a token. `requestedScopes` (OAuth's
   * `scope`) narrows the credential's scopes; it may not widen them. Failure limits (decisions 7,
   * `failure-limits.ts`): a certificate of the credential's own account is judged by the client's
   * key (its wrong secrets also count on the address); any other certificate by its own key and the
   * address. Over the limit, 429 before the secret is checked; a right secret writes nothing.
   */
  async function grant(cert: CertificateInfo, credentials: ClientCredentials, caller: Caller, requestedScopes?: string[]): Promise<Grant> {
    const now = clock.now();
    if (now < cert.notBefore) {
      throw new DomainError('PUB_CERT_NOT_YET_VALID', {
        hint: `The certificate is valid from ${cert.notBefore.toISOString()}; use a certificate valid now or check its notBefore.`,
        notBefore: cert.notBefore.toISOString(),
      });
    }
    if (now > cert.notAfter) {
      throw new DomainError('PUB_CERT_EXPIRED', {
        hint: `The certificate expired at ${cert.notAfter.toISOString()}; register a new certificate for the account.`,
        notAfter: cert.notAfter.toISOString(),
      });
    }

    const keys = {
      client: failureKeys.client(credentials.clientId),
      certificate: failureKeys.certificate(cert.fingerprint),
      address: failureKeys.tokenAddress(caller.address),
    };
    const found = await fromStore('certificate', () =>
      lookupIdentity(cert.fingerprint, isUuidV4(credentials.clientId) ? credentials.clientId.toLowerCase() : undefined, keys),
    );
    if (found.certificateAccountId === null) {
      // Not a wrong secret: nothing was checked, nothing counts.
      throw new DomainError('PUB_CERT_NOT_REGISTERED', {
        hint: 'This certificate is not linked to any account, or it was revoked. Link it to the account in the service portal (admin) and retry.',
        fingerprint: cert.fingerprint,
      });
    }
    const credential = found.credential ?? undefined;
    if (credential && !deps.secrets.isRecognizedHash(credential.secret_hash)) {
      deps.logger.error({ clientId: credentials.clientId }, 'stored client secret hash is in an unknown format');
      throw new DomainError('PUB_AUTH_UPSTREAM_ERROR', {
        hint: 'The credential store answered something this service does not recognise. Retry later; if it persists, contact support quoting the errorId.',
      });
    }
    const ownCertificate = credential !== undefined && credential.account_id === found.certificateAccountId;
    const plan = ownCertificate
      ? deps.failures.ownCertificateAttempt({ clientId: credentials.clientId, address: caller.address })
      : deps.failures.foreignCertificateAttempt({ fingerprint: cert.fingerprint, address: caller.address });
    // An unknown clientId is checked against a dummy hash: same answer, same time as a wrong secret.
    const judged = await fromStore('failure counters', () =>
      deps.failures.judge(plan, () => deps.secrets.verifySecret(credentials.clientSecret, credential?.secret_hash ?? deps.secrets.dummyHash), found.seen),
    );
    if (judged.outcome === 'refused') throw tooManyFailures(judged.retryAfterSeconds);
    if (!credential || judged.outcome === 'wrong') {
      deps.logger.warn({ clientId: credentials.clientId.slice(0, 64), address: caller.address }, 'wrong client credentials');
      throw new DomainError('PUB_INVALID_CREDENTIALS', {
        hint: 'Check clientId and clientSecret. The secret is shown only when the credentials are created; create new credentials if it was lost.',
      });
    }
    if (!ownCertificate) {
      throw new DomainError('PUB_CERT_NOT_AUTHORIZED_FOR_ACCOUNT', {
        hint: 'The certificate is registered to another account. Use the certificate linked to the account that owns this clientId.',
      });
    }

    const held = credential.scopes.split(' ').filter(Boolean);
    let scopes = held;
    if (requestedScopes !== undefined) {
      const refused = requestedScopes.filter((s) => !held.includes(s));
      if (refused.length > 0) {
        throw new DomainError(
          'AUTH_SCOPE_NOT_GRANTED',
          { hint: `These credentials carry: ${held.join(' ')}. Known scopes: ${ALL_SCOPES.join(' ')}.`, refused },
          `Scope not granted: ${refused.join(' ')}`,
        );
      }
      scopes = [...new Set(requestedScopes)];
    }

    const { token, expiresIn } = await fromStore('signing key', () =>
      deps.tokens.issue({
        accountId: credential.account_id,
        clientId: credentials.clientId.toLowerCase(),
        scopes,
        certificateFingerprint: cert.fingerprint,
      }),
    );
    return { accessToken: token, expiresIn, scopes };
  }

  return { readCertificate, certificateFrom, grant };
}

export type TokenGrantService = ReturnType<typeof createTokenGrantService>;
