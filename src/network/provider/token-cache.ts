/**
 * The provider's access token: fetched with `POST /api/auth/token`, kept until `marginMs` before it
 * expires (the spec suggests 30 s), then renewed; concurrent callers share one renewal in flight.
 * A failed renewal is not cached: the next caller tries again.
 */
export interface IssuedToken {
  accessToken: string;
  expiresInSeconds: number;
}

export interface TokenSnapshot {
  expiresAt: Date | null;
  lastRenewedAt: Date | null;
  lastError: string | null;
}

export function createTokenCache(options: { fetch: () => Promise<IssuedToken>; marginMs?: number; now?: () => number }) {
  const now = options.now ?? Date.now;
  const marginMs = options.marginMs ?? 30_000;
  let current: { token: string; expiresAt: number } | undefined;
  let renewing: Promise<string> | undefined;
  let lastRenewedAt: number | null = null;
  let lastError: string | null = null;

  async function renew(): Promise<string> {
    try {
      const issued = await options.fetch();
      const at = now();
      current = { token: issued.accessToken, expiresAt: at + issued.expiresInSeconds * 1000 };
      lastRenewedAt = at;
      lastError = null;
      return issued.accessToken;
    } catch (error) {
      lastError = String((error as Error)?.message ?? error);
      throw error;
    }
  }

  return {
    /** A token valid for at least `marginMs` more. */
    async get(): Promise<string> {
      if (current && now() < current.expiresAt - marginMs) return current.token;
      if (!renewing) renewing = renew().finally(() => (renewing = undefined));
      return renewing;
    },
    /** The provider refused the token (revoked, or its keys rotated): the next call fetches a new one. */
    invalidate(token: string): void {
      if (current?.token === token) current = undefined;
    },
    snapshot(): TokenSnapshot {
      return {
        expiresAt: current ? new Date(current.expiresAt) : null,
        lastRenewedAt: lastRenewedAt === null ? null : new Date(lastRenewedAt),
        lastError,
      };
    },
  };
}

export type TokenCache = ReturnType<typeof createTokenCache>;
