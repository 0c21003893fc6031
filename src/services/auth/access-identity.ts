/** Who a valid access token speaks for. */
export interface AccessIdentity {
  accountId: number;
  clientId: string;
  scopes: string[];
}

/** Resolves an `Authorization` header to an identity; undefined for anything not a valid token. */
export interface AccountTokenAuthenticator {
  authenticate(authorizationHeader: string | undefined): Promise<AccessIdentity | undefined>;
}
