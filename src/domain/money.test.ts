import { describe, expect, it } from 'vitest';
import {
  MAX_AMOUNT,
  basisPointsFromPercent,
  percentFromBasisPoints,
  partsPerMillionFromPercent,
  cents,
  centsFromDecimalString,
  centsFromNumber,
  toBrlNumber,
  toDecimalString,
} from './money.ts';

describe('cents', () => {
  it.each([0, 1, -5, 99_999_999_999, Number.MAX_SAFE_INTEGER])('accepts %s', (n) => {
    expect(cents(n)).toBe(n);
  });
  it.each([0.5, NaN, Infinity, -Infinity, Number.MAX_SAFE_INTEGER + 1])('rejects %s', (n) => {
    expect(() => cents(n)).toThrow(RangeError);
  });
  it('normalises negative zero', () => {
    expect(Object.is(cents(-0), 0)).toBe(true);
  });
  it('MAX_AMOUNT is 999,999,999.99 BRL', () => {
    expect(MAX_AMOUNT).toBe(99_999_999_999);
  });
});

describe('centsFromNumber', () => {
  it.each<[number, number]>([
    [0.29, 29],
    [0.1, 10],
    [0.01, 1],
    [10, 1000],
    [12.3, 1230],
    [12.34, 1234],
    [0, 0],
    [-0, 0],
    [1.1, 110],
    [4.35, 435],
    [999_999_999.99, 99_999_999_999],
    [-12.5, -1250],
    [90_071_992_547_409, 9_007_199_254_740_900], // largest whole-real amount still safe in cents
  ])('%s -> %s cents', (value, expected) => {
    expect(centsFromNumber(value)).toBe(expected);
  });

  it.each([
    1.005, // would become 100.49999 or 101 by float maths: neither is what was sent
    0.001,
    12.345,
    1e21, // String gives "1e+21"
    1e-7, // String gives "1e-7"
    NaN,
    Infinity,
    -Infinity,
    1e20, // 1e22 cents is not a safe integer
    90_071_992_547_410, // its cents pass MAX_SAFE_INTEGER
  ])('%s -> undefined', (value) => {
    expect(centsFromNumber(value)).toBeUndefined();
  });

  it('never yields -0', () => {
    expect(Object.is(centsFromNumber(-0), 0)).toBe(true);
  });

  it('rejects non-numbers smuggled past the type', () => {
    expect(centsFromNumber('10' as unknown as number)).toBeUndefined();
  });
});

describe('centsFromDecimalString', () => {
  it.each<[string, number]>([
    ['0.01', 1],
    ['12.34', 1234],
    ['100.00', 10000],
    ['9999999999.99', 999_999_999_999],
    ['0012.30', 1230],
  ])('%s -> %s', (text, expected) => {
    expect(centsFromDecimalString(text)).toBe(expected);
  });
  it.each(['12', '12.3', '12.345', '.50', '12.', '-1.00', '+1.00', '1e2', ' 1.00', '1.00 ', '1,00', '12345678901.00', ''])(
    '%j -> undefined',
    (text) => {
      expect(centsFromDecimalString(text)).toBeUndefined();
    },
  );
});

describe('toBrlNumber / toDecimalString', () => {
  it.each<[number, number, string]>([
    [1234, 12.34, '12.34'],
    [5, 0.05, '0.05'],
    [29, 0.29, '0.29'],
    [0, 0, '0.00'],
    [100, 1, '1.00'],
    [99_999_999_999, 999_999_999.99, '999999999.99'],
    [-150, -1.5, '-1.50'],
  ])('%s', (c, num, text) => {
    expect(toBrlNumber(cents(c))).toBe(num);
    expect(toDecimalString(cents(c))).toBe(text);
  });

  it('round-trips every amount of the first 100k cents through JSON numbers', () => {
    for (let c = 0; c < 100_000; c++) {
      expect(centsFromNumber(toBrlNumber(cents(c)))).toBe(c);
    }
  });
});

describe('basisPointsFromPercent', () => {
  it.each<[number, number]>([
    [1.5, 150],
    [0, 0],
    [100, 10000],
    [0.01, 1],
    [0.29, 29],
    [12.34, 1234],
    [10, 1000],
  ])('%s%% -> %s bp', (percent, bp) => {
    expect(basisPointsFromPercent(percent)).toBe(bp);
  });
  it.each([100.01, 101, -1, -0.01, 1.005, 0.001, NaN, Infinity, 1e-7])('%s -> undefined', (percent) => {
    expect(basisPointsFromPercent(percent)).toBeUndefined();
  });
});

describe('percentFromBasisPoints', () => {
  it.each([
    [150, 1.5],
    [0, 0],
    [10_000, 100],
    [1, 0.01],
  ])('%d bp is %d%%', (bp, percent) => {
    expect(percentFromBasisPoints(bp)).toBe(percent);
  });
});

describe('partsPerMillionFromPercent', () => {
  it.each([
    [33.3333, 333_333],
    [10, 100_000],
    [100, 1_000_000],
    [0.0001, 1],
    [33.33333, undefined],
    [100.0001, undefined],
    [-1, undefined],
    [Number.NaN, undefined],
  ])('%d%% is %s ppm', (percent, ppm) => {
    expect(partsPerMillionFromPercent(percent)).toBe(ppm);
  });
});
