/** Decisions 4.13: the scopes a credential can carry; a credential gets all of them by default. */
export const ALL_SCOPES = ['pix:read', 'pix:write', 'balance:read', 'webhook:read', 'webhook:write'] as const;
export type Scope = (typeof ALL_SCOPES)[number];
