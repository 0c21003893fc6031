import { describe, expect, it } from 'vitest';
import { crc16 } from './crc16.ts';
import { parseBrCode } from './parse.ts';
import type { BrCode } from './parse.ts';
import { tlv } from './tlv.ts';

/** Appends a correct CRC, so a case fails for its own rule, not for the checksum. */
const withCrc = (body: string): string => `${body}6304${crc16(`${body}6304`)}`;

type Expected = Partial<Omit<BrCode, 'raw'>>;

// The BR Code samples of the reference data (shared/reference/brcode-samples.md), section A (all with correct CRCs).
const VALID: Array<[number, string, Expected]> = [
  [1, '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D',
    { kind: 'static', key: '123e4567-e12b-12d1-a456-426655440000', amount: undefined, merchantName: 'Fulano de Tal', merchantCity: 'BRASILIA', txid: '***' }],
  [2, '00020104141234567890123426580014BR.GOV.BCB.PIX0136123e4567-e12b-12d1-a456-42665544000027300012BR.COM.OUTRO011001234567895204000053039865406123.455802BR5917NOME DO RECEBEDOR6008BRASILIA61087007490062190515RP12345678-201980390012BR.COM.OUTRO01190123.ABCD.3456.WXYZ6304AD38',
    { kind: 'static', key: '123e4567-e12b-12d1-a456-426655440000', amount: 12345 as BrCode['amount'], merchantName: 'NOME DO RECEBEDOR', txid: 'RP12345678-2019', pointOfInitiation: undefined }],
  [3, '00020104141234567890123426500014BR.GOV.BCB.PIX0111119998877660213Hello message27300012BR.COM.OUTRO011001234567895204000053039865406123.455802BR5917NOME DO RECEBEDOR6008BRASILIA61087007490062190515RP12345678-201980390012BR.COM.OUTRO01190123.ABCD.3456.WXYZ63049059',
    { kind: 'static', key: '11999887766', additionalInfo: 'Hello message', amount: 12345 as BrCode['amount'] }],
  [4, '00020126510014br.gov.bcb.pix0115thalesog@me.com0210Pedido 123520400005303986540510.005802BR5914THALES OGLIARI6015SAO MIGUEL DO O62070503***63040DC6',
    { kind: 'static', key: 'thalesog@me.com', additionalInfo: 'Pedido 123', amount: 1000 as BrCode['amount'], merchantName: 'THALES OGLIARI', merchantCity: 'SAO MIGUEL DO O' }],
  [5, '00020126510014br.gov.bcb.pix0115thalesog@me.com0210Pedido 1235204000053039865802BR5914THALES OGLIARI6015SAO MIGUEL DO O62070503***630462CA',
    { kind: 'static', key: 'thalesog@me.com', amount: undefined }],
  [6, '00020126630014br.gov.bcb.pix0115thalesog@me.com0210Pedido 1230308123412345204000053039865802BR5914THALES OGLIARI6015SAO MIGUEL DO O62070503***6304901C',
    { kind: 'static', key: 'thalesog@me.com', fss: '12341234', amount: undefined }],
  [7, '00020126950014br.gov.bcb.pix01364004901d-bd85-4769-8e52-cb4c42c506dc0221Jornada pagador 431070308999990085204000053039865406577.575802BR5903Pix6008BRASILIA6229052599ed983ea570413d8d336301d630418B7',
    { kind: 'static', key: '4004901d-bd85-4769-8e52-cb4c42c506dc', additionalInfo: 'Jornada pagador 43107', fss: '99999008', amount: 57757 as BrCode['amount'], txid: '99ed983ea570413d8d336301d', merchantName: 'Pix' }],
  [8, '00020126740014br.gov.bcb.pix2552payload.psp.com/3ec9d2f9-5f03-4e0e-820d-63a81e769e875204000053039865802BR5914THALES OGLIARI6015SAO MIGUEL DO O62070503***630442C5',
    { kind: 'dynamic', url: 'payload.psp.com/3ec9d2f9-5f03-4e0e-820d-63a81e769e87', key: undefined, pointOfInitiation: undefined }],
  [9, '00020126740014br.gov.bcb.pix2552payload.psp.com/3ec9d2f9-5f03-4e0e-820d-63a81e769e875204000053039865802BR5912BARBARA PELE6015SAO MIGUEL DO O62070503***63040433',
    { kind: 'dynamic', merchantName: 'BARBARA PELE' }],
  [10, '00020101021226740014br.gov.bcb.pix2552payload.psp.com/3ec9d2f9-5f03-4e0e-820d-63a81e769e875204000053039865802BR5914THALES OGLIARI6015SAO MIGUEL DO O62070503***63042895',
    { kind: 'dynamic', pointOfInitiation: '12', url: 'payload.psp.com/3ec9d2f9-5f03-4e0e-820d-63a81e769e87' }],
  [11, '00020101021226870014br.gov.bcb.pix2565qrcodepix-h.bb.com.br/pix/v2/d9b97f73-b48b-43f6-be7e-f0594fb275a65204000053039865802BR5920ALAN GUIACHERO BUENO6008BRASILIA62070503***630464FF',
    { kind: 'dynamic', url: 'qrcodepix-h.bb.com.br/pix/v2/d9b97f73-b48b-43f6-be7e-f0594fb275a6' }],
  [12, '00020101021226850014br.gov.bcb.pix2563exemplodeurl.com.br/pix/v2/11111111-1111-1111-1111-11111111111152040000530398654040.015802BR5925TESTE DE TESTE DO TESTEIE6014RIO DE JANEIRO62070503***6304CD52',
    { kind: 'dynamic', amount: 1 as BrCode['amount'], url: 'exemplodeurl.com.br/pix/v2/11111111-1111-1111-1111-111111111111', merchantName: 'TESTE DE TESTE DO TESTEIE' }],
  [13, '00020101021226850014br.gov.bcb.pix2563exemplodeurl2.com.br/qr/v2/11111111-1111-1111-1111-11111111111152040000530398654041.005802BR5925TESTE DO TESTE DO TESTEIE6009NOVA LIMA62070503***63040B0F',
    { kind: 'dynamic', amount: 100 as BrCode['amount'], merchantCity: 'NOVA LIMA' }],
  [14, '00020101021226820014br.gov.bcb.pix2560exemplodeurl.com/pix/v2/11111111-1111-1111-1111-11111111111152040000530398654045.805802BR5925TESTE DO TESTE DO TESTEIE6014RIO DE JANEIRO622905251111111111111111111111111630449F9',
    { kind: 'dynamic', amount: 580 as BrCode['amount'], txid: '1111111111111111111111111' }],
  [15, '00020126990014br.gov.bcb.pix2577qr-h.sandbox.pix.bcb.gov.br/rest/api/v2/cobv/9b95a87c10a84d65bcbf55a48a2e50c85204000053039865802BR5903Pix6008BRASILIA62070503***63048ECF',
    { kind: 'dynamic', url: 'qr-h.sandbox.pix.bcb.gov.br/rest/api/v2/cobv/9b95a87c10a84d65bcbf55a48a2e50c8' }],
  [16, '00020126580014BR.GOV.BCB.PIX013611111111-1111-1111-1111-11111111111152040000530398654040.015802BR5925TESTE DO TESTE DO TESTEIE6009SAO PAULO6226052211111111111111111111116304642D',
    { kind: 'static', amount: 1 as BrCode['amount'], txid: '1111111111111111111111' }],
  [17, '00020126580014BR.GOV.BCB.PIX013611111111-1111-1111-1111-11111111111152040000530398654040.015802BR5925Teste do Teste do TesteIE6009SAO PAULO61081111111162160512NUgpnvaS87Ts6304760E',
    { kind: 'static', amount: 1 as BrCode['amount'], txid: 'NUgpnvaS87Ts', merchantName: 'Teste do Teste do TesteIE' }],
  [18, '00020126490014BR.GOV.BCB.PIX0111111111111110212Vacina covid52040000530398654031005802BR5904CARL6010SAN.FIERRO62100506b4b4c46304040C',
    { kind: 'static', key: '11111111111', additionalInfo: 'Vacina covid', amount: 10000 as BrCode['amount'], txid: 'b4b4c4' }],
  [19, '00020126610014BR.GOV.BCB.PIX0111111111111110212Vacina covid03081650155552040000530398654031005802BR5904CARL6010SAN.FIERRO62070503aB16304327E',
    { kind: 'static', fss: '16501555', txid: 'aB1', amount: 10000 as BrCode['amount'] }],
  [20, '00020101021226720014br.gov.bcb.pix2550bx.com.br/pix/8b3da2f3-9a41-40d1-a91a-bd93113bd4415204000053039865406123.455802BR5913Fulano de Tal6008BRASILIA62190515RP12345678-2019630445C8',
    { kind: 'dynamic', amount: 12345 as BrCode['amount'], url: 'bx.com.br/pix/8b3da2f3-9a41-40d1-a91a-bd93113bd441', txid: 'RP12345678-2019' }],
  [21, '00020101021226770014BR.GOV.BCB.PIX2555pix.example.com/qr/93598be0-1bd0-4997-8318-81776a1d8a995204000053039865802BR5907EMPRESA6009SAO PAULO62070503***6304EEAB',
    { kind: 'dynamic', url: 'pix.example.com/qr/93598be0-1bd0-4997-8318-81776a1d8a99', merchantName: 'EMPRESA' }],
  [22, '00020126370014br.gov.bcb.pix0115thalesog@me.com520400005303986540510.005802BR5914THALES OGLIARI6015SAO MIGUEL DO O62070503***80780014br.gov.bcb.pix2556payload.psp.com/rec/3ec9d2f9-5f03-4e0e-820d-63a81e769e876304B6DE',
    { kind: 'static', key: 'thalesog@me.com', amount: 1000 as BrCode['amount'] }],
  [23, '00020101021226940014br.gov.bcb.pix2572qr-h.sandbox.pix.bcb.gov.br/rest/api/v2/7b2d64c4eb744a2d92a4dd5f8cfc4dfa5204000053039865802BR5913FULANO DE TAL6008BRASILIA62070503***80950014br.gov.bcb.pix2573qr-h.sandbox.pix.bcb.gov.br/rest/api/rec/3d29b94249c54b3f8c533d729f59b5e56304DBE0',
    { kind: 'dynamic', url: 'qr-h.sandbox.pix.bcb.gov.br/rest/api/v2/7b2d64c4eb744a2d92a4dd5f8cfc4dfa', pointOfInitiation: '12' }],
];

// Section A #24: valid as a code, but only sets up Pix Automático; there is nothing to pay.
const REC_ONLY =
  '00020126180014br.gov.bcb.pix5204000053039865802BR5914THALES OGLIARI6015SAO MIGUEL DO O62070503***80780014br.gov.bcb.pix2556payload.psp.com/rec/3ec9d2f9-5f03-4e0e-820d-63a81e769e876304A8B8';

describe('parseBrCode: section A samples', () => {
  it.each(VALID)('sample %i parses', (_n, raw, expected) => {
    const result = parseBrCode(raw);
    if (!result.ok) throw new Error(result.reason);
    expect(result.code.raw).toBe(raw);
    for (const [field, value] of Object.entries(expected)) {
      expect(result.code[field as keyof BrCode], field).toBe(value);
    }
  });

  it('sample 24 (Pix Automático only) is not payable', () => {
    const result = parseBrCode(REC_ONLY);
    expect(result).toEqual({ ok: false, reason: expect.stringMatching(/Pix Automático/) });
  });

  it('returns exactly the fields present (no undefined keys)', () => {
    const result = parseBrCode(VALID[0]![1]);
    expect(result.ok && Object.keys(result.code).sort()).toEqual(
      ['kind', 'key', 'merchantCity', 'merchantName', 'raw', 'txid'].sort(),
    );
  });
});

// Bodies built from sample 18 (static, amount in 54) with another 54.
const AMOUNT_PREFIX = '00020126490014BR.GOV.BCB.PIX0111111111111110212Vacina covid520400005303986';
const AMOUNT_SUFFIX = '5802BR5904CARL6010SAN.FIERRO62100506b4b4c4';
const withAmount = (text: string): string => withCrc(`${AMOUNT_PREFIX}${tlv('54', text)}${AMOUNT_SUFFIX}`);

describe('parseBrCode: tolerated amount spellings', () => {
  it.each<[string, number | undefined]>([
    ['100', 10000],
    ['10', 1000],
    ['10.', 1000],
    ['0.9', 90],
    ['.5', 50],
    ['0.01', 1],
    ['9999999999.99', 999_999_999_999],
    ['0', undefined], // zero = no fixed amount
    ['0.00', undefined],
  ])('54 = %j -> %s cents', (text, expected) => {
    const result = parseBrCode(withAmount(text));
    if (!result.ok) throw new Error(result.reason);
    expect(result.code.amount).toBe(expected);
  });

  it.each(['1.005', '1,00', '-1.00', '1e3', '.', '', 'abc', '99999999999.99'])('54 = %j is rejected', (text) => {
    expect(parseBrCode(withAmount(text))).toEqual({ ok: false, reason: expect.stringMatching(/amount \(54\)/) });
  });
});

// Section B, plus codes made to break exactly one rule each (with a correct CRC).
const SAMPLE_1_BODY =
  '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***';
const DYN_MAI = tlv('26', tlv('00', 'br.gov.bcb.pix') + tlv('25', 'pix.example.com/qr/1'));
const TAIL = '5204000053039865802BR5907EMPRESA6009SAO PAULO62070503***';
/** Unreserved templates 81-84 to bring sample 1 to an exact length (the last value is `last` long). */
const padding = (last: number): string =>
  ['81', '82', '83'].map((id) => tlv(id, tlv('00', 'x'.repeat(95)))).join('') + tlv('84', tlv('00', 'x'.repeat(last - 4)));

describe('parseBrCode: rejected codes', () => {
  it.each<[string, string, RegExp]>([
    ['B 1043: URL with https://',
      '00020126990014br.gov.bcb.pix2577https://qr-h.sandbox.pix.bcb.gov.br/rest/api/v2/ac8ab4efe7db4200885f5ab3c34725204000053039865802BR5903Pix6008BRASILIA62070503***63041043',
      /scheme/],
    ['B EFF5: 26-char merchant name',
      '00020126830014br.gov.bcb.pix01364004901d-bd85-4769-8e52-cb4c42c506dc0221Jornada pagador 57768520400005303986540573.625802BR5926BANCOCENTRALDOBRASIL0003816008BRASILIA62080504oooo6304EFF5',
      /Merchant name \(59\)/],
    ['B B243: non-ASCII city',
      '00020126830014br.gov.bcb.pix01364004901d-bd85-4769-8e52-cb4c42c506dc0221Jornada pagador 57768520400005303986540573.625802BR5903Pix6008Brasília62080504oooo6304B243',
      /ASCII/],
    ['B B4F6: non-ASCII city',
      '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASÍLIA62070503***6304B4F6',
      /ASCII/],
    ['B 75EF: emoji in the reference label', withCrc(SAMPLE_1_BODY.replace('62070503***', '62070503a😀')), /ASCII/],
    ['B ABE9: 513 characters', withCrc(SAMPLE_1_BODY + padding(63)), /at most 512/],
    ['bad CRC (section C)',
      '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865406010.005802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D',
      /CRC does not match/],
    ['lowercase CRC of another body', SAMPLE_1_BODY + '63041d3e', /CRC does not match/],
    ['no CRC field', SAMPLE_1_BODY, /CRC field 63/],
    ['CRC length not 04', `${SAMPLE_1_BODY}6305${crc16(`${SAMPLE_1_BODY}6305`)}0`, /CRC field 63/],
    ['wrong payload format', withCrc(`000202${SAMPLE_1_BODY.slice(6)}`), /start with 000201/],
    ['not starting with 00', withCrc(`0102${SAMPLE_1_BODY}`), /start with 000201/],
    ['6304 hidden inside a value', `${SAMPLE_1_BODY}99086304${crc16(`${SAMPLE_1_BODY}99086304`)}`, /must be the last field/],
    ['truncated field', withCrc(`${SAMPLE_1_BODY}9905abc`), /malformed/],
    ['duplicate amount', withCrc(`${AMOUNT_PREFIX}540510.00540520.00${AMOUNT_SUFFIX}`), /appears more than once/],
    ['point of initiation 13', withCrc(`000201010213${DYN_MAI}${TAIL}`), /\(01\)/],
    ['no field 26', withCrc(`000201${TAIL}`), /Pix GUI/],
    ['another GUI in 26', withCrc(`000201${tlv('26', tlv('00', 'br.com.outro') + tlv('01', 'x@y.com'))}${TAIL}`), /Pix GUI/],
    ['Pix GUI only in 27', withCrc(`000201${tlv('27', tlv('00', 'br.gov.bcb.pix') + tlv('01', 'x@y.com'))}${TAIL}`), /Pix GUI/],
    ['both key and URL', withCrc(`000201${tlv('26', tlv('00', 'br.gov.bcb.pix') + tlv('01', 'x@y.com') + tlv('25', 'a.com/b'))}${TAIL}`), /both/],
    ['neither key nor URL', withCrc(`000201${tlv('26', tlv('00', 'br.gov.bcb.pix'))}${TAIL}`), /key \(01\) or a URL \(25\)/],
    ['empty key', withCrc(`000201${tlv('26', tlv('00', 'br.gov.bcb.pix') + tlv('01', ''))}${TAIL}`), /key \(26-01\) must not be empty/],
    ['empty URL', withCrc(`000201${tlv('26', tlv('00', 'br.gov.bcb.pix') + tlv('25', ''))}${TAIL}`), /URL \(26-25\) must not be empty/],
    ['http:// URL', withCrc(`000201${tlv('26', tlv('00', 'br.gov.bcb.pix') + tlv('25', 'http://a.com/b'))}${TAIL}`), /scheme/],
    ['FSS not 8 digits', withCrc(`000201${tlv('26', tlv('00', 'br.gov.bcb.pix') + tlv('01', 'x@y.com') + tlv('03', '1234'))}${TAIL}`), /FSS/],
    ['no 52', withCrc(`000201${DYN_MAI}${TAIL.replace('52040000', '')}`), /\(52\)/],
    ['currency not BRL', withCrc(`000201${DYN_MAI}${TAIL.replace('5303986', '5303840')}`), /\(53\)/],
    ['no 53', withCrc(`000201${DYN_MAI}${TAIL.replace('5303986', '')}`), /\(53\)/],
    ['country not BR', withCrc(`000201${DYN_MAI}${TAIL.replace('5802BR', '5802US')}`), /\(58\)/],
    ['no 59', withCrc(`000201${DYN_MAI}${TAIL.replace('5907EMPRESA', '')}`), /\(59\)/],
    ['empty 59', withCrc(`000201${DYN_MAI}${TAIL.replace('5907EMPRESA', '5900')}`), /\(59\)/],
    ['no 60', withCrc(`000201${DYN_MAI}${TAIL.replace('6009SAO PAULO', '')}`), /\(60\)/],
    ['16-char city', withCrc(`000201${DYN_MAI}${TAIL.replace('6009SAO PAULO', '6016SAO PAULO CAPITA')}`), /\(60\)/],
    ['26-char reference label', withCrc(`000201${DYN_MAI}${TAIL.replace('62070503***', tlv('62', tlv('05', 'a'.repeat(26))))}`), /\(62-05\)/],
  ])('%s', (_why, raw, reason) => {
    const result = parseBrCode(raw);
    expect(result).toEqual({ ok: false, reason: expect.stringMatching(reason) });
  });

  it('accepts a code at exactly 512 characters', () => {
    const raw = withCrc(SAMPLE_1_BODY + padding(62));
    expect(raw).toHaveLength(512);
    expect(parseBrCode(raw).ok).toBe(true);
  });

  it('accepts a lowercase CRC', () => {
    const raw = VALID[0]![1];
    expect(parseBrCode(raw.slice(0, -4) + raw.slice(-4).toLowerCase()).ok).toBe(true);
  });

  it('rejects what is not a string', () => {
    expect(parseBrCode(42 as unknown as string).ok).toBe(false);
  });
});
