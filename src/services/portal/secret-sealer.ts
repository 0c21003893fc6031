import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { SecretHashKey } from '../auth/secret-hash.ts';

/**
 * Seals small secrets the service must read back (a person's TOTP secret) with AES-256-GCM, under a
 * key derived (HKDF-SHA256) from the client-secret hash key: `CLIENT_SECRET_HASH_KEY` from the
 * secret store when set, so a copy of the database alone does not open them. The sealed text names
 * its key (`v1.<keyId>.<iv>.<ciphertext>.<tag>`), so secrets sealed under an older key still open
 * after the variable is set.
 */
export function createSecretSealer(keys: { current: SecretHashKey; others: SecretHashKey[] }, purpose: string) {
  const derive = (k: SecretHashKey) => Buffer.from(hkdfSync('sha256', k.key, Buffer.alloc(0), `pix-account-service ${purpose}`, 32));
  const byId = new Map([keys.current, ...keys.others].map((k) => [k.id, derive(k)]));
  const currentKey = byId.get(keys.current.id)!;

  function seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', currentKey, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', keys.current.id, iv.toString('base64url'), body.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('.');
  }

  /** The plain text, or undefined when the key is unknown or the text was altered. */
  function open(sealed: string): string | undefined {
    const [version, keyId, iv, body, tag] = sealed.split('.');
    const key = keyId ? byId.get(keyId) : undefined;
    if (version !== 'v1' || !key || !iv || body === undefined || !tag) return undefined;
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      return undefined;
    }
  }

  return { seal, open };
}

export type SecretSealer = ReturnType<typeof createSecretSealer>;
