import fc from 'fast-check';
import { hasError, parsePix } from 'pix-utils';
import { describe, expect, it } from 'vitest';
import { MAX_AMOUNT, cents, toBrlNumber } from '../money.ts';
import { encodeDynamicBrCode, encodeStaticBrCode, toEmvText } from './encode.ts';
import { parseBrCode } from './parse.ts';

const URL_1 = 'payload.psp.com/3ec9d2f9-5f03-4e0e-820d-63a81e769e87';

describe('golden outputs (samples section A)', () => {
  it('dynamic, single use: sample 10 byte for byte', () => {
    expect(encodeDynamicBrCode({ url: URL_1, merchantName: 'Thales Ogliari', merchantCity: 'São Miguel do Ó' })).toBe(
      '00020101021226740014br.gov.bcb.pix2552payload.psp.com/3ec9d2f9-5f03-4e0e-820d-63a81e769e875204000053039865802BR5914THALES OGLIARI6015SAO MIGUEL DO O62070503***63042895',
    );
  });

  it('static with amount and info: sample 4 byte for byte', () => {
    expect(
      encodeStaticBrCode({
        key: 'thalesog@me.com',
        additionalInfo: 'Pedido 123',
        amount: cents(1000),
        merchantName: 'Thales Ogliari',
        merchantCity: 'Sao Miguel do O',
      }),
    ).toBe(
      '00020126510014br.gov.bcb.pix0115thalesog@me.com0210Pedido 123520400005303986540510.005802BR5914THALES OGLIARI6015SAO MIGUEL DO O62070503***63040DC6',
    );
  });
});

describe('encodeDynamicBrCode', () => {
  it('writes 54 only when an amount is given, and a txid when given', () => {
    const code = encodeDynamicBrCode({ url: 'h/qr/v2/1', amount: cents(12345), merchantName: 'A', merchantCity: 'B', txid: 'abc123' });
    expect(code).toContain('5406123.45');
    expect(code).toContain('62100506abc123');
    expect(encodeDynamicBrCode({ url: 'h/qr/v2/1', merchantName: 'A', merchantCity: 'B' })).not.toMatch(/54\d\d\d/);
  });

  it.each<[string, Parameters<typeof encodeDynamicBrCode>[0]]>([
    ['a URL with a scheme', { url: 'https://h/qr/v2/1', merchantName: 'A', merchantCity: 'B' }],
    ['a 78-char URL', { url: 'u'.repeat(78), merchantName: 'A', merchantCity: 'B' }],
    ['an empty URL', { url: '', merchantName: 'A', merchantCity: 'B' }],
    ['a non-ASCII URL', { url: 'h/cobrança', merchantName: 'A', merchantCity: 'B' }],
    ['a zero amount', { url: 'h/1', amount: cents(0), merchantName: 'A', merchantCity: 'B' }],
    ['a negative amount', { url: 'h/1', amount: cents(-1), merchantName: 'A', merchantCity: 'B' }],
    ['an amount above the maximum', { url: 'h/1', amount: cents(MAX_AMOUNT + 1), merchantName: 'A', merchantCity: 'B' }],
    ['a txid with a hyphen', { url: 'h/1', txid: 'abc-1', merchantName: 'A', merchantCity: 'B' }],
    ['a 26-char txid', { url: 'h/1', txid: 'a'.repeat(26), merchantName: 'A', merchantCity: 'B' }],
  ])('refuses %s', (_why, input) => {
    expect(() => encodeDynamicBrCode(input)).toThrow(RangeError);
  });
});

describe('encodeStaticBrCode', () => {
  it('cuts the info to the room the key leaves in field 26', () => {
    const key = '4004901d-bd85-4769-8e52-cb4c42c506dc'; // 26 = 18 + 40 + 4 + info: 37 chars of room
    const parsed = parseBrCode(encodeStaticBrCode({ key, additionalInfo: 'x'.repeat(60), merchantName: 'A', merchantCity: 'B' }));
    expect(parsed.ok && parsed.code.additionalInfo).toBe('x'.repeat(37));
  });

  it('leaves the info out when the key fills field 26', () => {
    const key = `${'a'.repeat(65)}@example.com`;
    const parsed = parseBrCode(encodeStaticBrCode({ key, additionalInfo: 'hello', merchantName: 'A', merchantCity: 'B' }));
    expect(parsed.ok && parsed.code.key).toBe(key);
    expect(parsed.ok && parsed.code.additionalInfo).toBeUndefined();
  });

  it('turns the info into ASCII but keeps its case', () => {
    const parsed = parseBrCode(encodeStaticBrCode({ key: 'a@b.com', additionalInfo: 'Pedido nº 1 — açaí', merchantName: 'A', merchantCity: 'B' }));
    expect(parsed.ok && parsed.code.additionalInfo).toBe('Pedido no 1 acai');
  });

  it.each<[string, Parameters<typeof encodeStaticBrCode>[0]]>([
    ['an empty key', { key: '', merchantName: 'A', merchantCity: 'B' }],
    ['a 78-char key', { key: 'k'.repeat(78), merchantName: 'A', merchantCity: 'B' }],
    ['a non-ASCII key', { key: 'joão@b.com', merchantName: 'A', merchantCity: 'B' }],
    ['a zero amount', { key: 'a@b.com', amount: cents(0), merchantName: 'A', merchantCity: 'B' }],
    ['a bad txid', { key: 'a@b.com', txid: 'no spaces', merchantName: 'A', merchantCity: 'B' }],
  ])('refuses %s', (_why, input) => {
    expect(() => encodeStaticBrCode(input)).toThrow(RangeError);
  });
});

describe('names and cities', () => {
  it.each<[string, string, string, string]>([
    ['Bárbara Pelé', 'São Paulo', 'BARBARA PELE', 'SAO PAULO'],
    ['Ação & Cia. Ltda', 'Brasília', 'ACAO & CIA. LTDA', 'BRASILIA'],
    ['Empresa de Pagamentos Instantâneos', 'Rio de Janeiro Capital', 'EMPRESA DE PAGAMENTOS INS', 'RIO DE JANEIRO'],
    ['  João\u00a0\u00a0da   Silva ', 'Itaú\tde Minas', 'JOAO DA SILVA', 'ITAU DE MINAS'],
    ['Café ☕ Ｆｕｌｌ ﬁne', 'Açu', 'CAFE FULL FINE', 'ACU'],
    ['北京', '東京', 'NAO INFORMADO', 'NAO INFORMADO'],
  ])('%j / %j -> %j / %j', (name, city, expectedName, expectedCity) => {
    const parsed = parseBrCode(encodeDynamicBrCode({ url: 'h/1', merchantName: name, merchantCity: city }));
    if (!parsed.ok) throw new Error(parsed.reason);
    expect(parsed.code.merchantName).toBe(expectedName);
    expect(parsed.code.merchantCity).toBe(expectedCity);
  });

  it('toEmvText does not end a cut on a space', () => {
    expect(toEmvText('abcd efgh', 5)).toBe('abcd');
  });
});

// Inputs as the service produces them: ASCII URLs without scheme, any text for names and cities.
const urlArb = fc.stringMatching(/^[a-z0-9.-]{1,20}(?::\d{2,5})?\/[A-Za-z0-9/._-]{0,40}$/);
const amountArb = fc.option(fc.integer({ min: 1, max: MAX_AMOUNT }), { nil: undefined });
const txidArb = fc.option(fc.stringMatching(/^[A-Za-z0-9]{1,25}$/), { nil: undefined });
const textArb = fc.string({ unit: 'grapheme', maxLength: 40 });
const keyArb = fc.oneof(
  fc.uuid(),
  fc.emailAddress().filter((e) => e.length <= 77 && /^[\x20-\x7E]+$/.test(e)),
  fc.stringMatching(/^\+55[1-9]{2}9\d{8}$/),
);

describe('round trip and independent check (pix-utils)', () => {
  it('dynamic codes parse back to their input, here and in pix-utils', () => {
    fc.assert(
      fc.property(urlArb, amountArb, textArb, textArb, txidArb, (url, amount, name, city, txid) => {
        const raw = encodeDynamicBrCode({ url, merchantName: name, merchantCity: city, ...(amount ? { amount: cents(amount) } : {}), ...(txid ? { txid } : {}) });
        const parsed = parseBrCode(raw);
        if (!parsed.ok) throw new Error(`${parsed.reason}: ${raw}`);
        expect(parsed.code).toMatchObject({ kind: 'dynamic', url, pointOfInitiation: '12', txid: txid ?? '***' });
        expect(parsed.code.amount).toBe(amount);
        expect(parsed.code.key).toBeUndefined();
        expect(parsed.code.merchantName.length).toBeLessThanOrEqual(25);
        expect(parsed.code.merchantCity.length).toBeLessThanOrEqual(15);

        const theirs = parsePix(raw);
        if (hasError(theirs)) throw new Error(`pix-utils: ${theirs.message}: ${raw}`);
        expect(theirs).toMatchObject({
          type: 'DYNAMIC',
          url,
          merchantName: parsed.code.merchantName,
          merchantCity: parsed.code.merchantCity,
        });
      }),
      { numRuns: 300 },
    );
  });

  it('static codes parse back to their input, here and in pix-utils', () => {
    fc.assert(
      fc.property(keyArb, amountArb, textArb, textArb, txidArb, fc.option(textArb, { nil: undefined }), (key, amount, name, city, txid, info) => {
        const raw = encodeStaticBrCode({
          key,
          merchantName: name,
          merchantCity: city,
          ...(amount ? { amount: cents(amount) } : {}),
          ...(txid ? { txid } : {}),
          ...(info !== undefined ? { additionalInfo: info } : {}),
        });
        const parsed = parseBrCode(raw);
        if (!parsed.ok) throw new Error(`${parsed.reason}: ${raw}`);
        expect(parsed.code).toMatchObject({ kind: 'static', key, txid: txid ?? '***' });
        expect(parsed.code.amount).toBe(amount);
        expect(parsed.code.pointOfInitiation).toBeUndefined();

        const theirs = parsePix(raw);
        if (hasError(theirs)) throw new Error(`pix-utils: ${theirs.message}: ${raw}`);
        expect(theirs).toMatchObject({
          type: 'STATIC',
          pixKey: key,
          transactionAmount: amount === undefined ? 0 : toBrlNumber(cents(amount)),
          merchantName: parsed.code.merchantName,
          merchantCity: parsed.code.merchantCity,
          txid: txid ?? '***',
        });
        expect(theirs.type === 'STATIC' ? theirs.infoAdicional : 'n/a').toBe(parsed.code.additionalInfo);
      }),
      { numRuns: 300 },
    );
  });
});
