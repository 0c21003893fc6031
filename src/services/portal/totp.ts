import { randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';

/**
 * TOTP as every authenticator app computes it (RFC 6238 defaults: HMAC-SHA1, 6 digits, 30-second
 * steps), through `otpauth`. A code is accepted for its own step and one step either side (clock
 * drift between the phone and the server); the caller keeps the step it accepted, so a code works once.
 */
export const TOTP_PERIOD_S = 30;
const DIGITS = 6;
const DRIFT_STEPS = 1;

const totpOf = (secretBase32: string, options: { issuer?: string; label?: string } = {}) =>
  new TOTP({ secret: Secret.fromBase32(secretBase32), algorithm: 'SHA1', digits: DIGITS, period: TOTP_PERIOD_S, ...options });

/** A new secret: 160 random bits (RFC 4226's recommended length), in base32 as the apps take it. */
export const newTotpSecret = (): string => new Secret({ buffer: randomBytes(20).buffer }).base32;

/** The code of a time (what the authenticator app shows then). */
export const totpCode = (secretBase32: string, at: Date): string => totpOf(secretBase32).generate({ timestamp: at.getTime() });

/** The 30-second step a time falls in. */
export const stepOf = (at: Date): number => Math.floor(at.getTime() / 1000 / TOTP_PERIOD_S);

/** The step whose code this is, within the drift allowed around `at`; undefined when it is none. */
export function matchingStep(secretBase32: string, code: string, at: Date): number | undefined {
  if (!/^\d{6}$/.test(code)) return undefined;
  const delta = totpOf(secretBase32).validate({ token: code, timestamp: at.getTime(), window: DRIFT_STEPS });
  return delta === null ? undefined : stepOf(at) + delta;
}

/** The `otpauth://` URI an authenticator app scans (QR code) to add the account. */
export const otpauthUri = (secretBase32: string, issuer: string, label: string): string => totpOf(secretBase32, { issuer, label }).toString();

// Recovery codes: 10 characters of Crockford's base32 (no i, l, o, u: nothing to misread): 50 bits.
const RECOVERY_ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
export const RECOVERY_CODE_COUNT = 10;

/** A recovery code as shown: `abcde-fghjk`. */
export function newRecoveryCode(): string {
  const chars = [...randomBytes(10)].map((b) => RECOVERY_ALPHABET[b % 32]!).join('');
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

/** A typed recovery code in its stored form (any case, spaces and dash dropped); undefined when it cannot be one. */
export function normaliseRecoveryCode(typed: string): string | undefined {
  const bare = typed.toLowerCase().replace(/[\s-]/g, '');
  return new RegExp(`^[${RECOVERY_ALPHABET}]{10}$`).test(bare) ? bare : undefined;
}
