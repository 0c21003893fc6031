/** Who a valid access token speaks for. */
export interface AccessIdentity {
  accountId: number;
  clientId: string;
  scopes: string[];
  /** SHA-256 fingerprint (hex) of the client certificate the token is bound to (`cnf.x5t#S256`). */
  certificateFingerprint: string;
}

/** Resolves an `Authorization` header to an identity; undefined for anything not a valid token. */
export interface AccountTokenAuthenticator {
  authenticate(authorizationHeader: string | undefined): Promise<AccessIdentity | undefined>;
}
