import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const scrypt = (secret: string, salt: Buffer, keylen: number, options: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) =>
    scryptCb(secret, salt, keylen, options, (error, key) => (error ? reject(error) : resolve(key))),
  );

// N=2^14, r=8, p=1: the interactive-login parameters; ~16 MiB and tens of ms per check.
const PARAMS = { N: 16384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };
const KEYLEN = 32;

/** `scrypt$N$r$p$salt$hash`, so parameters can be raised later without breaking stored hashes. */
export async function hashSecret(secret: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(secret, salt, KEYLEN, PARAMS);
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** True when a stored hash is in a scheme this code can check (anything else is a corrupt record). */
export function isRecognizedHash(stored: string): boolean {
  return /^scrypt\$\d+\$\d+\$\d+\$[A-Za-z0-9_-]+\$[A-Za-z0-9_-]+$/.test(stored);
}

/** Constant-time comparison; a malformed stored hash never matches. */
export async function verifySecret(secret: string, stored: string): Promise<boolean> {
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

/** A hash of a random secret: checking an unknown clientId against it costs what a real check costs. */
export const DUMMY_HASH_PROMISE = hashSecret(randomBytes(18).toString('base64url'));
