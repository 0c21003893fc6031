import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK } from 'jose';
import { sql, type Kysely } from 'kysely';
import type { Clock } from '../../domain/clock.ts';
import type { DB } from '../../db/schema.ts';
import type { StoredJwk } from '../../db/schema/auth.ts';
import type { ChangeAudit } from '../audit/audit-log.ts';
import { TOKEN_LIFETIME_S } from './token-claims.ts';

export const SIGNING_ALG = 'ES256';
/** A signing key is replaced after this long; tokens it signed stay verifiable until they expire. */
const ROTATE_AFTER_MS = 30 * 86_400_000;
const KEYS_LOCK = 7256100;
/**
 * How long (real time) an instance keeps signing with the key it last read before reading again: a
 * token endpoint then reads no key per token. Another instance's rotation reaches it within this
 * time, so a retired key keeps verifying for a token's lifetime plus this.
 */
const SIGNING_KEY_MEMORY_MS = 30_000;

export interface SigningKey {
  kid: string;
  key: CryptoKey;
}

/**
 * The keys that sign access tokens, kept in the database so every instance signs and verifies with
 * the same set and a restart invalidates nothing. Imported key objects are cached (by kid: a kid
 * names one immutable key); which key signs is remembered for SIGNING_KEY_MEMORY_MS (forgotten at
 * once when this instance rotates); which keys still verify is always read from the table.
 */
export function createSigningKeys(deps: { db: Kysely<DB>; clock: Clock }) {
  const { db, clock } = deps;
  const imported = new Map<string, Promise<CryptoKey>>();
  // Bounded on real time and on the service clock: a retired key verifies for SIGNING_KEY_MEMORY_MS
  // past a token's lifetime on the service clock, so an instance must not sign with it longer than
  // that on either clock (the sandbox clock can jump while the real-time memory still holds).
  let remembered: { row: { kid: string; private_jwk: unknown; created_at: Date }; until: number; untilOnClock: number } | undefined;

  const importOnce = (cacheKey: string, jwk: StoredJwk) => {
    let key = imported.get(cacheKey);
    if (!key) {
      key = importJWK(jwk as JWK, SIGNING_ALG) as Promise<CryptoKey>;
      imported.set(cacheKey, key);
    }
    return key;
  };

  async function newKeyRow(now: Date) {
    const { privateKey, publicKey } = await generateKeyPair(SIGNING_ALG, { extractable: true });
    const publicJwk = await exportJWK(publicKey);
    const privateJwk = await exportJWK(privateKey);
    const kid = await calculateJwkThumbprint(publicJwk);
    return {
      kid,
      alg: SIGNING_ALG,
      private_jwk: JSON.stringify(privateJwk),
      public_jwk: JSON.stringify({ ...publicJwk, kid, alg: SIGNING_ALG, use: 'sig' }),
      created_at: now,
    };
  }

  /**
   * Makes a new signing key and retires the current one. Several instances may call this at once:
   * an advisory lock makes them take turns, and `onlyIfOlderThan` lets the later ones see that the
   * work is done. `audit` records the rotation inside its transaction.
   */
  async function rotate(onlyIfOlderThan?: Date, audit?: ChangeAudit): Promise<KeyRotation> {
    remembered = undefined;
    const now = clock.now();
    const row = await newKeyRow(now);
    return db.transaction().execute(async (trx) => {
      await sql`SELECT pg_advisory_xact_lock(${KEYS_LOCK})`.execute(trx);
      const active = await trx
        .selectFrom('signing_keys')
        .select(['kid', 'created_at'])
        .where('retired_at', 'is', null)
        .executeTakeFirst();
      if (active && onlyIfOlderThan && active.created_at > onlyIfOlderThan) return { kid: active.kid, previousKid: null, previousKeyValidUntil: null };
      await trx.updateTable('signing_keys').set({ retired_at: now }).where('retired_at', 'is', null).execute();
      await trx.insertInto('signing_keys').values(row).execute();
      const rotation = { kid: row.kid, previousKid: active?.kid ?? null, previousKeyValidUntil: active ? verifiesUntil(now) : null };
      await audit?.(trx, {
        accountId: null,
        target: `signing-key:${row.kid}`,
        before: active ? { kid: active.kid } : null,
        after: { kid: row.kid, previousKeyValidUntil: rotation.previousKeyValidUntil?.toISOString() ?? null },
      });
      return rotation;
    });
  }

  /** Creates the first key on first start; a no-op afterwards. */
  async function ensure(): Promise<void> {
    const active = await db.selectFrom('signing_keys').select('kid').where('retired_at', 'is', null).executeTakeFirst();
    if (!active) await rotate(new Date(0));
  }

  /** The key that signs now (rotated first when it is older than the rotation period). */
  async function current(): Promise<SigningKey> {
    const now = clock.now();
    let active =
      remembered && performance.now() < remembered.until && now.getTime() < remembered.untilOnClock
        ? remembered.row
        : await db.selectFrom('signing_keys').select(['kid', 'private_jwk', 'created_at']).where('retired_at', 'is', null).executeTakeFirst();
    if (!active || now.getTime() - active.created_at.getTime() >= ROTATE_AFTER_MS) {
      await rotate(new Date(now.getTime() - ROTATE_AFTER_MS));
      active = await db
        .selectFrom('signing_keys')
        .select(['kid', 'private_jwk', 'created_at'])
        .where('retired_at', 'is', null)
        .executeTakeFirstOrThrow();
    }
    if (remembered?.row !== active) remembered = { row: active, until: performance.now() + SIGNING_KEY_MEMORY_MS, untilOnClock: now.getTime() + SIGNING_KEY_MEMORY_MS };
    return { kid: active.kid, key: await importOnce(`private:${active.kid}`, active.private_jwk as StoredJwk) };
  }

  /** A key that may verify a token now: active, or retired less than one token lifetime ago. */
  async function verificationKey(kid: string): Promise<CryptoKey | undefined> {
    const row = await db
      .selectFrom('signing_keys')
      .select(['public_jwk', 'retired_at'])
      .where('kid', '=', kid)
      .executeTakeFirst();
    if (!row || !stillVerifies(row.retired_at, clock.now())) return undefined;
    return importOnce(`public:${kid}`, row.public_jwk as StoredJwk);
  }

  /** The public keys that verify tokens now (JWKS): never a private member. */
  async function publicKeys(): Promise<StoredJwk[]> {
    const now = clock.now();
    const rows = await db
      .selectFrom('signing_keys')
      .select(['public_jwk', 'retired_at'])
      .execute();
    // The signing key first, then retired keys, most recently retired first.
    const rank = (r: { retired_at: Date | null }) => r.retired_at?.getTime() ?? Number.POSITIVE_INFINITY;
    return rows
      .filter((r) => stillVerifies(r.retired_at, now))
      .sort((a, b) => rank(b) - rank(a))
      .map((r) => {
        const { kty, crv, x, y, kid, alg, use } = r.public_jwk as StoredJwk;
        return { kty, crv, x, y, kid, alg, use } as StoredJwk;
      });
  }

  return { ensure, rotate: (audit?: ChangeAudit) => rotate(undefined, audit), current, verificationKey, publicKeys };
}

/** What a rotation did: the key that signs now, and until when the one it replaced still verifies. */
export interface KeyRotation {
  kid: string;
  previousKid: string | null;
  previousKeyValidUntil: Date | null;
}

/** The last moment a key retired at `retiredAt` verifies (and stays in the JWKS). */
const verifiesUntil = (retiredAt: Date) => new Date(retiredAt.getTime() + TOKEN_LIFETIME_S * 1000 + SIGNING_KEY_MEMORY_MS);

/** A retired key verifies for a token's lifetime after it retired, plus the time another instance may still sign with it. */
function stillVerifies(retiredAt: Date | null, now: Date): boolean {
  return retiredAt === null || now.getTime() <= verifiesUntil(retiredAt).getTime();
}

export type SigningKeys = ReturnType<typeof createSigningKeys>;
