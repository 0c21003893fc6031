/**
 * Money is an integer count of centavos everywhere inside the service. Floats only exist at the
 * JSON edge, and they are converted through their decimal text, never by multiplying, because
 * 0.29 * 100 is 28.999999999999996 and a rounding "fix" would silently accept 1.005.
 */
export type Cents = number & { readonly __brand: 'Cents' };

/** Asserts that n is a safe integer; negative values are allowed so deltas can be typed too. */
export function cents(n: number): Cents {
  if (!Number.isSafeInteger(n)) throw new RangeError(`Not a safe integer amount of cents: ${n}`);
  // -0 would print as "0" but compare oddly in Object.is-based checks (e.g. test equality).
  return (n === 0 ? 0 : n) as Cents;
}

/** R$ 999,999,999.99: above it a payment answers PIX_INVALID_AMOUNT (decisions 4.7). */
export const MAX_AMOUNT: Cents = cents(99_999_999_999);

// String(number) is the shortest text that round-trips, so it is exactly what the client wrote
// (up to trailing zeros). Exponent forms ("1e+21", "1e-7") never match and are rejected.
const PLAIN_DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

/** Joins integer and fraction digits as text, so no float arithmetic is involved. */
function scaled(sign: string, int: string, frac: string, places: number): number | undefined {
  if (frac.length > places) return undefined;
  const n = Number(int + frac.padEnd(places, '0'));
  // Above 2^53 the parse itself rounds, and the result is then never a safe integer.
  if (!Number.isSafeInteger(n)) return undefined;
  return sign === '-' && n !== 0 ? -n : n;
}

/**
 * A JSON number in BRL with at most 2 decimals, exactly. Negative amounts parse (callers apply the
 * minimum), more decimals are rejected, never rounded (decisions 3).
 */
export function centsFromNumber(value: number): Cents | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value)) return undefined;
  const m = PLAIN_DECIMAL.exec(String(value));
  if (!m) return undefined;
  const n = scaled(m[1] ?? '', m[2] ?? '', m[3] ?? '', 2);
  return n === undefined ? undefined : cents(n);
}

const COMPATIBLE_DECIMAL = /^(\d{1,10})\.(\d{2})$/;

/** The compatible family's string amounts: exactly two decimals, no sign, no exponent. */
export function centsFromDecimalString(text: string): Cents | undefined {
  if (typeof text !== 'string') return undefined;
  const m = COMPATIBLE_DECIMAL.exec(text);
  if (!m) return undefined;
  return cents(Number((m[1] ?? '') + (m[2] ?? '')));
}

/**
 * For JSON output. Dividing an integer by 100 gives the double nearest to the exact quotient,
 * which is the same double the literal "12.34" parses to, so it serialises as 12.34.
 */
export function toBrlNumber(c: Cents): number {
  const n = c / 100;
  return n === 0 ? 0 : n;
}

/** "12.34", "0.05", "-1.50": the compatible family's amount text. */
export function toDecimalString(c: Cents): string {
  const abs = Math.abs(c);
  const int = Math.trunc(abs / 100);
  const frac = String(abs % 100).padStart(2, '0');
  return `${c < 0 ? '-' : ''}${int}.${frac}`;
}

/** A percent with at most 2 decimals in 0-100 as basis points (1.5 -> 150), exactly, or undefined. */
export function basisPointsFromPercent(percent: number): number | undefined {
  if (typeof percent !== 'number' || !Number.isFinite(percent)) return undefined;
  const m = PLAIN_DECIMAL.exec(String(percent));
  if (!m || m[1] === '-') return undefined;
  const bp = scaled('', m[2] ?? '', m[3] ?? '', 2);
  if (bp === undefined || bp > 10_000) return undefined;
  return bp;
}

/**
 * A percent with at most 4 decimals in 0-100 as parts per million of the whole (33.3333 -> 333_333),
 * exactly, or undefined: split percentages may be finer than fees.
 */
export function partsPerMillionFromPercent(percent: number): number | undefined {
  if (typeof percent !== 'number' || !Number.isFinite(percent)) return undefined;
  const m = PLAIN_DECIMAL.exec(String(percent));
  if (!m || m[1] === '-') return undefined;
  const ppm = scaled('', m[2] ?? '', m[3] ?? '', 4);
  if (ppm === undefined || ppm > 1_000_000) return undefined;
  return ppm;
}

/** Basis points back to a percent for display: 150 -> 1.5. */
export function percentFromBasisPoints(basisPoints: number): number {
  return basisPoints / 100;
}

/**
 * The maximum in the words of the edges, all derived from MAX_AMOUNT (its one home): the JSON schemas'
 * `maximum` (999999999.99), the compatible family's text ("999999999.99") and the refusal's
 * ("999,999,999.99"). admit_payouts gets MAX_AMOUNT as its p_max_amount.
 */
export const MAX_AMOUNT_BRL: number = toBrlNumber(MAX_AMOUNT);
export const MAX_AMOUNT_TEXT: string = toDecimalString(MAX_AMOUNT);
export const MAX_AMOUNT_GROUPED: string = MAX_AMOUNT_TEXT.replace(/\B(?=(\d{3})+\.)/g, ',');
