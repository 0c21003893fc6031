import { decodeProtectedHeader, jwtVerify, SignJWT } from 'jose';
import type { Clock } from '../../domain/clock.ts';
import { newUuidV4 } from '../../domain/ids.ts';
import { SIGNING_ALG, type SigningKeys } from './signing-keys.ts';
import {
  fingerprintOfThumbprint,
  thumbprintOfFingerprint,
  TOKEN_AUDIENCE,
  TOKEN_LIFETIME_S,
} from './token-claims.ts';

export interface TokenSubject {
  accountId: number;
  clientId: string;
  scopes: string[];
  /** SHA-256 fingerprint (hex) of the client certificate the token is bound to. */
  certificateFingerprint: string;
}

const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/**
 * Signs and verifies access tokens: ES256 JWTs (RFC 9068 claim names) with `kid`, bound to the client
 * certificate by `cnf.x5t#S256` (RFC 8705). Expiry is judged on the service clock.
 */
export function createTokenService(deps: { clock: Clock; keys: SigningKeys; /** `iss`: the service's public URL (RFC 8414). */ issuer: string }) {
  async function issue(subject: TokenSubject): Promise<{ token: string; expiresIn: number }> {
    const { kid, key } = await deps.keys.current();
    const issuedAt = Math.floor(deps.clock.now().getTime() / 1000);
    const token = await new SignJWT({
      client_id: subject.clientId,
      account_id: subject.accountId,
      scope: subject.scopes.join(' '),
      cnf: { 'x5t#S256': thumbprintOfFingerprint(subject.certificateFingerprint) },
    })
      .setProtectedHeader({ alg: SIGNING_ALG, kid, typ: 'at+jwt' })
      .setIssuer(deps.issuer)
      .setAudience(TOKEN_AUDIENCE)
      .setSubject(String(subject.accountId))
      .setJti(newUuidV4())
      .setIssuedAt(issuedAt)
      .setNotBefore(issuedAt)
      .setExpirationTime(issuedAt + TOKEN_LIFETIME_S)
      .sign(key);
    return { token, expiresIn: TOKEN_LIFETIME_S };
  }

  /** The token's subject when it is ours, well signed, unexpired on the service clock; else undefined. */
  async function verify(token: string): Promise<TokenSubject | undefined> {
    if (!JWT_SHAPE.test(token)) return undefined;
    let kid: string | undefined;
    try {
      const header = decodeProtectedHeader(token);
      if (header.alg !== SIGNING_ALG || typeof header.kid !== 'string') return undefined;
      kid = header.kid;
    } catch {
      return undefined;
    }
    const key = await deps.keys.verificationKey(kid);
    if (!key) return undefined;
    try {
      const { payload } = await jwtVerify(token, key, {
        algorithms: [SIGNING_ALG],
        issuer: deps.issuer,
        audience: TOKEN_AUDIENCE,
        typ: 'at+jwt',
        currentDate: deps.clock.now(),
        requiredClaims: ['exp', 'iat', 'sub'],
      });
      const cnf = payload.cnf as Record<string, unknown> | undefined;
      const x5t = cnf?.['x5t#S256'];
      if (
        typeof payload.client_id !== 'string' ||
        typeof payload.account_id !== 'number' ||
        typeof payload.scope !== 'string' ||
        typeof x5t !== 'string'
      ) {
        return undefined;
      }
      return {
        accountId: payload.account_id,
        clientId: payload.client_id,
        scopes: payload.scope.split(' ').filter(Boolean),
        certificateFingerprint: fingerprintOfThumbprint(x5t),
      };
    } catch {
      return undefined;
    }
  }

  return { issue, verify };
}

export type TokenService = ReturnType<typeof createTokenService>;
