import { randomInt, randomUUID } from 'node:crypto';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/** Version nibble 4 and RFC 4122 variant; hex case is not significant (RFC 4122 section 3). */
export function isUuidV4(s: string): boolean {
  return typeof s === 'string' && UUID_V4.test(s);
}

export function newUuidV4(): string {
  return randomUUID();
}

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const E2E_SUFFIX = /^[A-Za-z0-9]{11}$/;
const ISPB = /^\d{8}$/;

/** 11 characters from a CSPRNG: e2e ids are public, so they must not be guessable. */
function randomSuffix(): string {
  let s = '';
  for (let i = 0; i < 11; i++) s += ALNUM[randomInt(ALNUM.length)];
  return s;
}

function utcStamp(at: Date): string {
  const ms = at.getTime();
  if (!Number.isFinite(ms)) throw new RangeError('Invalid date');
  // toISOString is always UTC: "2025-03-10T12:34:56.789Z" -> "202503101234".
  return at.toISOString().slice(0, 16).replace(/[-T:]/g, '');
}

/**
 * E (payment) or D (refund) + ISPB of the paying institution + yyyyMMddHHmm UTC + 11
 * alphanumerics = 32 chars (decisions 3). `random` exists so tests get deterministic ids.
 */
export function endToEndId(
  prefix: 'E' | 'D',
  ispb: string,
  at: Date,
  random: () => string = randomSuffix,
): string {
  if (prefix !== 'E' && prefix !== 'D') throw new RangeError(`Bad end-to-end prefix: ${String(prefix)}`);
  if (!ISPB.test(ispb)) throw new RangeError(`An ISPB has exactly 8 digits: ${ispb}`);
  const stamp = utcStamp(at);
  if (stamp.length !== 12) throw new RangeError('Date outside years 0000-9999');
  const suffix = random();
  if (!E2E_SUFFIX.test(suffix)) throw new RangeError(`End-to-end suffix must be 11 alphanumerics: ${suffix}`);
  return `${prefix}${ispb}${stamp}${suffix}`;
}

const E2E = /^[ED]\d{8}(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})[A-Za-z0-9]{11}$/;

/** Strict form: also checks that the timestamp is a real UTC minute (month 13 is not). */
export function isEndToEndId(s: string): boolean {
  if (typeof s !== 'string') return false;
  const m = E2E.exec(s);
  if (!m) return false;
  const [year, month, day, hour, minute] = m.slice(1, 6).map(Number) as [number, number, number, number, number];
  const d = new Date(Date.UTC(year, month - 1, day, hour, minute));
  return (
    d.getUTCFullYear() === year &&
    d.getUTCMonth() === month - 1 &&
    d.getUTCDate() === day &&
    d.getUTCHours() === hour &&
    d.getUTCMinutes() === minute
  );
}

const E2E_LIKE = /^[ED][A-Za-z0-9]{31}$/;

/**
 * Loose shape used to tell an end-to-end id from a numeric id or an externalId in route
 * parameters: ids minted by other institutions need not follow our timestamp layout.
 */
export function isAnyE2eLike(s: string): boolean {
  return typeof s === 'string' && E2E_LIKE.test(s);
}
