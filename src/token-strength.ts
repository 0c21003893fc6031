/** 128 bits: what a guesser at any rate this service allows can never exhaust. */
const MIN_BITS = 128;
const MIN_LENGTH = 32;
const MIN_DISTINCT = 12;
/** The sandbox's bar: nothing there is worth guessing, but a typo-short token is still refused. */
const SANDBOX_MIN_LENGTH = 16;

/**
 * The whole rule a secret token (ADMIN_TOKEN, METRICS_TOKEN) must meet in a mode, in one sentence:
 * a refused token is told everything at once, never one bar and then the next.
 */
export function secretTokenRule(mode: 'sandbox' | 'production'): string {
  return mode === 'production'
    ? `production needs at least ${MIN_LENGTH} characters, ${MIN_DISTINCT} distinct and ${MIN_BITS} bits; generate one with: openssl rand -base64 32`
    : `the sandbox needs at least ${SANDBOX_MIN_LENGTH} characters (production: ${MIN_LENGTH} characters, ${MIN_DISTINCT} distinct and ${MIN_BITS} bits); generate one with: openssl rand -base64 32`;
}

/**
 * Why a secret token is refused in `mode`, or undefined when it meets the rule. Production estimates
 * its strength as length x log2(distinct characters): `openssl rand -base64 32` (43 characters, ~30
 * distinct, ~210 bits) or `openssl rand -hex 32` (64 characters, 16 distinct, 256 bits) pass; a word
 * repeated, a short string or a run of few characters ("aaaa...", "0123456789" twice) does not.
 */
export function secretTokenProblem(token: string, mode: 'sandbox' | 'production'): string | undefined {
  if (mode === 'sandbox') {
    return token.length < SANDBOX_MIN_LENGTH ? `is too short (${token.length} characters): ${secretTokenRule(mode)}` : undefined;
  }
  const distinct = new Set(token).size;
  const bits = Math.floor(token.length * Math.log2(Math.max(distinct, 1)));
  if (token.length < MIN_LENGTH || distinct < MIN_DISTINCT || bits < MIN_BITS) {
    return `is too easy to guess for production (${token.length} characters, ${distinct} distinct, about ${bits} bits): ${secretTokenRule(mode)}`;
  }
  return undefined;
}

/** Production's rule alone: why a token is too guessable there, or undefined. */
export const tokenWeakness = (token: string): string | undefined => secretTokenProblem(token, 'production');
