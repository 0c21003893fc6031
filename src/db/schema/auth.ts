import type { Json, Timestamp } from './columns.ts';

/** A JSON Web Key as stored (jose's JWK shape, kept loose: the database does not interpret it). */
export type StoredJwk = Record<string, string>;

export interface SigningKeysTable {
  /** RFC 7638 thumbprint of the public key; the `kid` header of every token it signs. */
  kid: string;
  alg: string;
  private_jwk: Json<StoredJwk>;
  public_jwk: Json<StoredJwk>;
  created_at: Timestamp;
  /** Set when a newer key takes over signing; the key still verifies for one token lifetime. */
  retired_at: Timestamp | null;
}

/** Failure limits (migration 960): a key's newest failure times, oldest first, at most its limit of them. */
export interface AuthFailuresTable {
  key: string;
  failed_at: Date[];
  /** When the newest failure leaves the 15-minute window. */
  expires_at: Timestamp;
}

// Tables owned by the auth feature; its migrations live in src/db/migrations (100-199).
export interface AuthTables {
  signing_keys: SigningKeysTable;
  auth_failures: AuthFailuresTable;
}
