/**
 * Daily and night limits follow the São Paulo calendar (decisions 3 and 4.7). The offset comes
 * from the time-zone database through Intl, never a hard-coded -03:00: Brazil had daylight saving
 * time until 2019 and could have it again.
 */

const ZONE = 'America/Sao_Paulo';
const NIGHT_START_HOUR = 20;
const NIGHT_END_HOUR = 6;
const HOUR_MS = 3_600_000;

const formatter = new Intl.DateTimeFormat('en-US', {
  timeZone: ZONE,
  hourCycle: 'h23',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

interface Wall {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

function wallClock(ms: number): Wall {
  if (!Number.isFinite(ms)) throw new RangeError('Invalid date');
  const parts: Record<string, number> = {};
  for (const p of formatter.formatToParts(new Date(ms))) {
    if (p.type !== 'literal') parts[p.type] = Number(p.value);
  }
  return {
    year: parts.year ?? NaN,
    month: parts.month ?? NaN,
    day: parts.day ?? NaN,
    hour: parts.hour ?? NaN,
    minute: parts.minute ?? NaN,
    second: parts.second ?? NaN,
  };
}

/** Local minus UTC at that instant, in ms (-3 h today, -2 h in the old summer time). */
function offsetAt(ms: number): number {
  const w = wallClock(ms);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return asUtc - (ms - (((ms % 1000) + 1000) % 1000));
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');
const dateOf = (w: Wall): string => `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)}`;

/** Calendar arithmetic on 'YYYY-MM-DD', independent of any zone. */
function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/**
 * The first instant of local date `date` at `hour`:00. Where that wall time was skipped (summer
 * time began at midnight), the day started at the first wall time that did exist, 01:00.
 */
function localToUtc(date: string, hour: number): Date {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const asUtc = Date.UTC(y, m - 1, d, hour);
  const first = asUtc - offsetAt(asUtc);
  const second = asUtc - offsetAt(first);
  // Either guess may land on the wrong side of a transition; keep the earliest one on the right day
  // and hour (or later, for a skipped hour).
  const candidates = [first, second, first + HOUR_MS, second + HOUR_MS]
    .filter((t) => {
      const w = wallClock(t);
      return dateOf(w) === date && w.hour >= hour;
    })
    .sort((a, b) => a - b);
  const best = candidates[0];
  if (best === undefined) throw new RangeError(`No São Paulo time ${date} ${hour}:00`);
  return new Date(best);
}

/** 'YYYY-MM-DD' of the São Paulo calendar day containing `at`. */
export function saoPauloDate(at: Date): string {
  return dateOf(wallClock(at.getTime()));
}

/** 20:00 inclusive to 06:00 exclusive, local time: the window with the reduced night limit. */
export function isNight(at: Date): boolean {
  const { hour } = wallClock(at.getTime());
  return hour >= NIGHT_START_HOUR || hour < NIGHT_END_HOUR;
}

/**
 * Identifies one night for the night-limit total: the local date on which it began, so 23:00 on
 * the 4th and 02:00 on the 5th count together. Undefined during the day.
 */
export function nightKey(at: Date): string | undefined {
  const w = wallClock(at.getTime());
  if (w.hour >= NIGHT_START_HOUR) return dateOf(w);
  if (w.hour < NIGHT_END_HOUR) return addDays(dateOf(w), -1);
  return undefined;
}

/** The night containing `at` as a half-open UTC interval [start, end), for querying totals. */
export function nightWindowUtc(at: Date): { start: Date; end: Date } | undefined {
  const key = nightKey(at);
  if (key === undefined) return undefined;
  return { start: localToUtc(key, NIGHT_START_HOUR), end: localToUtc(addDays(key, 1), NIGHT_END_HOUR) };
}

/** Local midnight that began the São Paulo day containing `at`. */
export function saoPauloDayStartUtc(at: Date): Date {
  return localToUtc(saoPauloDate(at), 0);
}

/** Local midnight that ends the São Paulo day containing `at` (exclusive end of the daily window). */
export function nextLocalMidnightUtc(at: Date): Date {
  return localToUtc(addDays(saoPauloDate(at), 1), 0);
}

/** Start of a São Paulo calendar date given as 'YYYY-MM-DD'. */
export function saoPauloDateStartUtc(date: string): Date {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || addDays(date, 0) !== date) {
    throw new RangeError(`Not a calendar date: ${date}`);
  }
  return localToUtc(date, 0);
}
