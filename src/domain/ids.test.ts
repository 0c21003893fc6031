import { describe, expect, it } from 'vitest';
import { endToEndId, isAnyE2eLike, isEndToEndId, isUuidV4, newUuidV4 } from './ids.ts';

describe('isUuidV4', () => {
  it.each([
    ['3ec9d2f9-5f03-4e0e-820d-63a81e769e87', true],
    ['3EC9D2F9-5F03-4E0E-820D-63A81E769E87', true],
    ['3ec9d2f9-5f03-4e0e-b20d-63a81e769e87', true],
    ['123e4567-e12b-12d1-a456-426655440000', false], // version 1
    ['3ec9d2f9-5f03-4e0e-c20d-63a81e769e87', false], // variant bits
    ['3ec9d2f95f034e0e820d63a81e769e87', false], // no hyphens
    ['3ec9d2f9-5f03-4e0e-820d-63a81e769e8', false],
    ['3ec9d2f9-5f03-4e0e-820d-63a81e769e87 ', false],
    ['00000000-0000-0000-0000-000000000000', false],
    ['', false],
  ])('%j -> %s', (s, expected) => {
    expect(isUuidV4(s)).toBe(expected);
  });

  it('newUuidV4 makes distinct v4 ids', () => {
    const a = newUuidV4();
    const b = newUuidV4();
    expect(isUuidV4(a)).toBe(true);
    expect(a).not.toBe(b);
  });
});

describe('endToEndId', () => {
  const at = new Date('2025-03-09T23:59:59.999Z');

  it.each<['E' | 'D', string]>([
    ['E', 'E99999999202503092359AbCdE123456'],
    ['D', 'D99999999202503092359AbCdE123456'],
  ])('%s + ISPB + yyyyMMddHHmm (UTC) + suffix', (prefix, expected) => {
    const id = endToEndId(prefix, '99999999', at, () => 'AbCdE123456');
    expect(id).toBe(expected);
    expect(id).toHaveLength(32);
    expect(isEndToEndId(id)).toBe(true);
  });

  it('uses UTC, not local time', () => {
    // 02:30 in UTC is 23:30 of the day before in São Paulo.
    const id = endToEndId('E', '00000000', new Date('2025-01-01T02:30:00Z'), () => 'x'.repeat(11));
    expect(id.slice(9, 21)).toBe('202501010230');
  });

  it('makes a random 11-char alphanumeric suffix by default', () => {
    const ids = new Set(Array.from({ length: 200 }, () => endToEndId('E', '12345678', at)));
    expect(ids.size).toBe(200);
    for (const id of ids) {
      expect(isEndToEndId(id)).toBe(true);
      expect(id.slice(21)).toMatch(/^[A-Za-z0-9]{11}$/);
    }
  });

  it.each([
    ['1234567', 'short ISPB'],
    ['123456789', 'long ISPB'],
    ['1234567a', 'non-digit ISPB'],
  ])('rejects %s (%s)', (ispb) => {
    expect(() => endToEndId('E', ispb, at)).toThrow(RangeError);
  });

  it.each(['abc', 'AbCdE12345!', 'AbCdE1234567', ''])('rejects suffix %j', (suffix) => {
    expect(() => endToEndId('E', '12345678', at, () => suffix)).toThrow(RangeError);
  });

  it('rejects a bad prefix and an invalid date', () => {
    expect(() => endToEndId('X' as 'E', '12345678', at)).toThrow(RangeError);
    expect(() => endToEndId('E', '12345678', new Date('nope'))).toThrow(RangeError);
  });
});

describe('isEndToEndId', () => {
  it.each([
    ['E99999999202503092359AbCdE123456', true],
    ['D12345678202402291200abcdefghijk', true], // leap day
    ['E99999999202513092359AbCdE123456', false], // month 13
    ['E99999999202302291200AbCdE123456', false], // 2023 had no Feb 29
    ['E99999999202503092459AbCdE123456', false], // hour 24
    ['E99999999202503092360AbCdE123456', false], // minute 60
    ['X99999999202503092359AbCdE123456', false],
    ['e99999999202503092359AbCdE123456', false],
    ['E9999999A202503092359AbCdE123456', false], // ISPB not digits
    ['E99999999202503092359AbCdE12345', false], // 31 chars
    ['E99999999202503092359AbCdE1234567', false], // 33 chars
    ['E99999999202503092359AbCdE12345-', false],
  ])('%s -> %s', (s, expected) => {
    expect(isEndToEndId(s)).toBe(expected);
  });
});

describe('isAnyE2eLike', () => {
  it.each([
    ['E99999999202503092359AbCdE123456', true],
    ['DABCDEFGHIJKLMNOPQRSTUVWXYZabcde', true], // no timestamp layout needed
    ['E99999999202513092359AbCdE123456', true],
    ['X99999999202503092359AbCdE123456', false],
    ['E99999999202503092359AbCdE12345', false],
    ['E99999999202503092359AbCdE1234567', false],
    ['E99999999-02503092359AbCdE123456', false],
    ['12345', false],
  ])('%s -> %s', (s, expected) => {
    expect(isAnyE2eLike(s)).toBe(expected);
  });
});
