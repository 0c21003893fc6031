import { createHash, createHmac, randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * How client secrets are stored and checked. Two schemes, told apart by the stored hash's prefix:
 *
 * - `hmac-sha256$<keyId>$<mac>`: secrets this service generated (216 random bits). Guessing one is
 *   hopeless whatever the hash, so a memory-hard hash buys nothing and costs tens of ms per token
 *   request; an HMAC-SHA256 under a server-side key (never stored next to the hashes when
 *   `CLIENT_SECRET_HASH_KEY` is set) costs microseconds, as API-key services do. `keyId` names the
 *   key, so a hash made under another key is recognised as such instead of failing silently.
 * - `scrypt$N$r$p$salt$hash`: secrets a person chose (the admin route's `clientSecret`), which may be
 *   guessable, keep a memory-hard hash; and every hash stored before keyed hashing existed.
 *
 * An old scrypt hash is NOT upgraded to HMAC on use: nothing tells a generated secret from a chosen
 * one after the fact, and turning a chosen password's hash into a fast one would weaken it.
 */

const scrypt = (secret: string, salt: Buffer, keylen: number, options: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) =>
    scryptCb(secret, salt, keylen, options, (error, key) => (error ? reject(error) : resolve(key))),
  );

// N=2^14, r=8, p=1: the interactive-login parameters; ~16 MiB and tens of ms per check.
const PARAMS = { N: 16384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };
const KEYLEN = 32;
/** The least key material accepted for the HMAC (256 bits, SHA-256's block strength). */
export const MIN_HASH_KEY_BYTES = 32;

const SCRYPT_HASH = /^scrypt\$\d+\$\d+\$\d+\$[A-Za-z0-9_-]+\$[A-Za-z0-9_-]+$/;
const HMAC_HASH = /^hmac-sha256\$([A-Za-z0-9_-]+)\$([A-Za-z0-9_-]{43})$/;

/** A key for the keyed hash, with its id: the first 12 base64url characters of SHA-256(key). */
export interface SecretHashKey {
  readonly id: string;
  readonly key: Buffer;
}

export function secretHashKey(key: Buffer): SecretHashKey {
  if (key.length < MIN_HASH_KEY_BYTES) throw new Error(`a secret hash key needs at least ${MIN_HASH_KEY_BYTES} bytes`);
  return Object.freeze({ id: createHash('sha256').update(key).digest('base64url').slice(0, 12), key });
}

/** A secret this service makes for a client: 27 random bytes, 36 base64url characters (216 bits). */
export function generateClientSecret(): string {
  return randomBytes(27).toString('base64url');
}

/** The memory-hard hash, for secrets a person chose. */
export async function hashChosenSecret(secret: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(secret, salt, KEYLEN, PARAMS);
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** The memory-hard hash for secrets people choose (portal passwords use it too). */
export const hashSecret = hashChosenSecret;

/** Checks a secret against a scrypt hash, in constant time; anything else never matches. */
async function verifyScrypt(secret: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [, n, r, p, saltText, hashText] = parts as [string, string, string, string, string, string];
  const expected = Buffer.from(hashText, 'base64url');
  const key = await scrypt(secret, Buffer.from(saltText, 'base64url'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: PARAMS.maxmem,
  });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** `verifyScrypt` under the name the portal's password checks use. */
export const verifySecret = verifyScrypt;

/** A scrypt hash of a random secret: checking an unknown person costs what a real check costs. */
export const DUMMY_HASH_PROMISE = hashSecret(randomBytes(18).toString('base64url'));

function mac(secret: string, key: SecretHashKey): Buffer {
  return createHmac('sha256', key.key).update(secret, 'utf8').digest();
}

/**
 * Hashing and checking under the service's keys: `current` hashes new secrets; `others` (keys used
 * before, e.g. the database-kept key once `CLIENT_SECRET_HASH_KEY` is set) still verify.
 */
export function createSecretHasher(keys: { current: SecretHashKey; others?: readonly SecretHashKey[] }) {
  const byId = new Map([keys.current, ...(keys.others ?? [])].map((k) => [k.id, k]));

  /** The keyed hash, for secrets this service generated. */
  function hashGeneratedSecret(secret: string): string {
    return `hmac-sha256$${keys.current.id}$${mac(secret, keys.current).toString('base64url')}`;
  }

  /**
   * True when a stored hash is in a scheme this code can check, under a key it holds (anything else
   * is a corrupt record or a missing key: a server fault, never the caller's).
   */
  function isRecognizedHash(stored: string): boolean {
    if (SCRYPT_HASH.test(stored)) return true;
    const hmac = HMAC_HASH.exec(stored);
    return hmac !== null && byId.has(hmac[1]!);
  }

  /** Constant-time comparison; a malformed stored hash never matches. */
  async function verifySecret(secret: string, stored: string): Promise<boolean> {
    const hmac = HMAC_HASH.exec(stored);
    if (hmac) {
      const key = byId.get(hmac[1]!);
      if (!key) return false;
      const expected = Buffer.from(hmac[2]!, 'base64url');
      const actual = mac(secret, key);
      return actual.length === expected.length && timingSafeEqual(actual, expected);
    }
    return verifyScrypt(secret, stored);
  }

  /**
   * What an unknown clientId is checked against, so it answers like a wrong secret. A keyed hash:
   * an unknown clientId must not cost a scrypt run, or it becomes the cheapest way to burn our CPU.
   */
  const dummyHash = hashGeneratedSecret(generateClientSecret());

  return { hashGeneratedSecret, hashChosenSecret, isRecognizedHash, verifySecret, dummyHash };
}

export type SecretHasher = ReturnType<typeof createSecretHasher>;
