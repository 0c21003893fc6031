/** Access tokens live 1800 s (interface spec, "Limits"), judged on the service clock. */
export const TOKEN_LIFETIME_S = 1800;
export const TOKEN_AUDIENCE = 'pix-account-service';

/** SHA-256 fingerprint (hex, as the certificate registry keys it) as RFC 8705's `x5t#S256` (base64url). */
export const thumbprintOfFingerprint = (hex: string) => Buffer.from(hex, 'hex').toString('base64url');
export const fingerprintOfThumbprint = (x5t: string) => Buffer.from(x5t, 'base64url').toString('hex');
