import { describe, expect, it } from 'vitest';
import { isTemplateId, parseTlv, tlv, valueOf } from './tlv.ts';

describe('parseTlv', () => {
  it('splits ID + LEN + VALUE and parses template sub-fields', () => {
    const result = parseTlv('000201' + '26180014br.gov.bcb.pix' + '5303986' + '62070503***');
    expect(result).toEqual({
      ok: true,
      fields: [
        { id: '00', value: '01' },
        { id: '26', value: '0014br.gov.bcb.pix', children: [{ id: '00', value: 'br.gov.bcb.pix' }] },
        { id: '53', value: '986' },
        { id: '62', value: '0503***', children: [{ id: '05', value: '***' }] },
      ],
    });
  });

  it('reads the length as decimal, not hex', () => {
    const result = parseTlv('0010' + '0123456789' + '0100');
    expect(result.ok && result.fields.map((f) => [f.id, f.value])).toEqual([
      ['00', '0123456789'],
      ['01', ''],
    ]);
  });

  it('does not parse the value of a non-template field', () => {
    const result = parseTlv('59080000abcd');
    expect(result.ok && result.fields[0]?.children).toBeUndefined();
  });

  it.each([
    ['0002', /longer than the text left/],
    ['000201xx', /header at position 6/],
    ['0A0201', /header at position 0/],
    ['00020', /00 is longer than the text left/],
    ['000201000', /header at position 6/],
    ['000201000202', /00 appears more than once/],
    ['26070005abc', /00 inside template 26 is longer than the text left/],
    ['26080003abcd', /header at position 7 inside template 26/],
    ['260800000000', /00 inside template 26 appears more than once/],
  ])('%j is rejected', (text, reason) => {
    const result = parseTlv(text);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(reason);
  });

  it('accepts the empty string as no fields', () => {
    expect(parseTlv('')).toEqual({ ok: true, fields: [] });
  });
});

describe('isTemplateId', () => {
  it.each([
    ['26', true],
    ['51', true],
    ['62', true],
    ['64', true],
    ['80', true],
    ['99', true],
    ['25', false],
    ['52', false],
    ['54', false],
    ['63', false],
    ['79', false],
  ])('%s -> %s', (id, expected) => {
    expect(isTemplateId(id)).toBe(expected);
  });
});

describe('tlv / valueOf', () => {
  it.each([
    ['00', '01', '000201'],
    ['59', 'Fulano de Tal', '5913Fulano de Tal'],
    ['01', '', '0100'],
    ['80', 'x'.repeat(99), `8099${'x'.repeat(99)}`],
  ])('tlv(%s, %j)', (id, value, expected) => {
    expect(tlv(id, value)).toBe(expected);
  });
  it('refuses values over 99 characters and bad IDs', () => {
    expect(() => tlv('80', 'x'.repeat(100))).toThrow(RangeError);
    expect(() => tlv('8', 'x')).toThrow(RangeError);
  });
  it('valueOf finds a field by ID', () => {
    const fields = [{ id: '00', value: 'a' }, { id: '01', value: 'b' }];
    expect(valueOf(fields, '01')).toBe('b');
    expect(valueOf(fields, '02')).toBeUndefined();
    expect(valueOf(undefined, '02')).toBeUndefined();
  });
});
