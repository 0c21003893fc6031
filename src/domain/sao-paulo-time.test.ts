import { describe, expect, it } from 'vitest';
import {
  isNight,
  nextLocalMidnightUtc,
  nightKey,
  nightWindowUtc,
  saoPauloDate,
  saoPauloDateStartUtc,
  saoPauloDayStartUtc,
} from './sao-paulo-time.ts';

const at = (iso: string): Date => new Date(iso);
const iso = (d: Date | undefined): string | undefined => d?.toISOString();

describe('saoPauloDate', () => {
  it.each([
    ['2025-03-10T02:59:59.999Z', '2025-03-09'], // 23:59:59 local
    ['2025-03-10T03:00:00.000Z', '2025-03-10'], // midnight local
    ['2025-01-01T02:00:00.000Z', '2024-12-31'],
    ['2019-01-15T02:30:00.000Z', '2019-01-15'], // summer time (-02:00): already 00:30 local
  ])('%s -> %s', (instant, expected) => {
    expect(saoPauloDate(at(instant))).toBe(expected);
  });
});

describe('isNight', () => {
  it.each([
    ['2025-03-10T22:59:59.999Z', false], // 19:59:59 local
    ['2025-03-10T23:00:00.000Z', true], // 20:00 local: inclusive
    ['2025-03-11T02:59:59.000Z', true], // 23:59 local
    ['2025-03-11T03:00:00.000Z', true], // 00:00 local
    ['2025-03-11T08:59:59.999Z', true], // 05:59:59 local
    ['2025-03-11T09:00:00.000Z', false], // 06:00 local: exclusive
    ['2025-03-11T15:00:00.000Z', false],
    ['2019-01-15T22:00:00.000Z', true], // 20:00 in summer time: a fixed -03:00 would say 19:00
    ['2019-01-15T08:00:00.000Z', false], // 06:00 in summer time
  ])('%s -> %s', (instant, expected) => {
    expect(isNight(at(instant))).toBe(expected);
  });
});

describe('nightKey', () => {
  it.each([
    ['2025-03-04T23:30:00.000Z', '2025-03-04'], // 20:30 on the 4th
    ['2025-03-05T05:00:00.000Z', '2025-03-04'], // 02:00 on the 5th belongs to the night of the 4th
    ['2025-03-05T08:59:59.000Z', '2025-03-04'],
    ['2025-03-05T09:00:00.000Z', undefined],
    ['2025-03-05T15:00:00.000Z', undefined],
    ['2025-03-05T22:59:59.000Z', undefined],
    ['2025-03-05T23:00:00.000Z', '2025-03-05'],
    ['2025-03-01T05:00:00.000Z', '2025-02-28'], // across a month
    ['2024-03-01T05:00:00.000Z', '2024-02-29'], // leap year
    ['2025-01-01T04:00:00.000Z', '2024-12-31'], // across a year
  ])('%s -> %s', (instant, expected) => {
    expect(nightKey(at(instant))).toBe(expected);
  });
});

describe('nightWindowUtc', () => {
  it.each([
    ['2025-03-05T05:00:00.000Z', '2025-03-04T23:00:00.000Z', '2025-03-05T09:00:00.000Z'],
    ['2025-03-04T23:00:00.000Z', '2025-03-04T23:00:00.000Z', '2025-03-05T09:00:00.000Z'],
    // Summer time began at midnight on 2018-11-04: that night was one hour shorter.
    ['2018-11-04T01:00:00.000Z', '2018-11-03T23:00:00.000Z', '2018-11-04T08:00:00.000Z'],
  ])('%s -> [%s, %s)', (instant, start, end) => {
    const w = nightWindowUtc(at(instant));
    expect(iso(w?.start)).toBe(start);
    expect(iso(w?.end)).toBe(end);
  });

  it('is undefined in the daytime', () => {
    expect(nightWindowUtc(at('2025-03-05T15:00:00Z'))).toBeUndefined();
  });
});

describe('saoPauloDayStartUtc / nextLocalMidnightUtc', () => {
  it.each([
    ['2025-03-10T12:00:00.000Z', '2025-03-10T03:00:00.000Z', '2025-03-11T03:00:00.000Z'],
    ['2025-03-10T03:00:00.000Z', '2025-03-10T03:00:00.000Z', '2025-03-11T03:00:00.000Z'],
    ['2025-03-10T02:59:59.999Z', '2025-03-09T03:00:00.000Z', '2025-03-10T03:00:00.000Z'],
    ['2024-12-31T12:00:00.000Z', '2024-12-31T03:00:00.000Z', '2025-01-01T03:00:00.000Z'],
    // Summer time (-02:00).
    ['2019-01-15T12:00:00.000Z', '2019-01-15T02:00:00.000Z', '2019-01-16T02:00:00.000Z'],
    // 2018-11-04: midnight was skipped, the day began at 01:00 local (03:00Z) and had 23 hours.
    ['2018-11-03T12:00:00.000Z', '2018-11-03T03:00:00.000Z', '2018-11-04T03:00:00.000Z'],
    ['2018-11-04T12:00:00.000Z', '2018-11-04T03:00:00.000Z', '2018-11-05T02:00:00.000Z'],
    // 2019-02-16 had 25 hours: 23:00-23:59 happened twice.
    ['2019-02-16T12:00:00.000Z', '2019-02-16T02:00:00.000Z', '2019-02-17T03:00:00.000Z'],
    ['2019-02-17T02:30:00.000Z', '2019-02-16T02:00:00.000Z', '2019-02-17T03:00:00.000Z'],
  ])('%s: day [%s, %s)', (instant, start, next) => {
    expect(iso(saoPauloDayStartUtc(at(instant)))).toBe(start);
    expect(iso(nextLocalMidnightUtc(at(instant)))).toBe(next);
  });

  it('rejects an invalid date', () => {
    expect(() => saoPauloDayStartUtc(new Date('nope'))).toThrow(RangeError);
  });
});

describe('saoPauloDateStartUtc', () => {
  it.each([
    ['2025-03-10', '2025-03-10T03:00:00.000Z'],
    ['2018-11-04', '2018-11-04T03:00:00.000Z'],
  ])('%s -> %s', (date, expected) => {
    expect(iso(saoPauloDateStartUtc(date))).toBe(expected);
  });
  it.each(['2025-02-30', '2025-3-10', 'today'])('rejects %s', (date) => {
    expect(() => saoPauloDateStartUtc(date)).toThrow(RangeError);
  });
});
