/** 128 bits: what a guesser at any rate this service allows can never exhaust. */
const MIN_BITS = 128;
const MIN_LENGTH = 32;
const MIN_DISTINCT = 12;

/**
 * Why a production secret token (ADMIN_TOKEN, METRICS_TOKEN) is too guessable, or undefined when it is strong enough. The estimate
 * is length x log2(distinct characters): `openssl rand -base64 32` (43 characters, ~30 distinct,
 * ~210 bits) or `openssl rand -hex 32` (64 characters, 16 distinct, 256 bits) pass; a word repeated,
 * a short string or a run of few characters ("aaaa...", "0123456789" twice) does not.
 */
export function tokenWeakness(token: string): string | undefined {
  const distinct = new Set(token).size;
  const bits = Math.floor(token.length * Math.log2(Math.max(distinct, 1)));
  if (token.length < MIN_LENGTH || distinct < MIN_DISTINCT || bits < MIN_BITS) {
    return (
      `is too easy to guess for production (${token.length} characters, ${distinct} distinct, about ${bits} bits; ` +
      `needs at least ${MIN_LENGTH} characters, ${MIN_DISTINCT} distinct and ${MIN_BITS} bits). ` +
      'Generate one with: openssl rand -base64 32'
    );
  }
  return undefined;
}
