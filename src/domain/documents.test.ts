import { describe, expect, it } from 'vitest';
import { documentType, isValidCnpj, isValidCpf, maskDocument } from './documents.ts';

describe('isValidCpf', () => {
  it.each([
    ['52998224725', true],
    ['11144477735', true],
    ['12345678909', true],
    ['52998224726', false], // second check digit wrong
    ['52998224715', false], // first check digit wrong
    ['00000000000', false], // all same digits pass the arithmetic
    ['11111111111', false],
    ['99999999999', false],
    ['529.982.247-25', false], // formatted: digits only
    ['5299822472', false],
    ['529982247250', false],
    ['5299822472a', false],
    ['', false],
  ])('%j -> %s', (s, expected) => {
    expect(isValidCpf(s)).toBe(expected);
  });
});

describe('isValidCnpj', () => {
  it.each([
    ['11222333000181', true],
    ['11444777000161', true],
    ['12ABC34501DE35', true], // alphanumeric CNPJ, example of the Receita Federal
    ['12ABC34501DE36', false],
    ['12ABC34501DE45', false],
    ['12abc34501de35', false], // letters are uppercase only
    ['12ABC34501DEA5', false], // check digits are always numeric
    ['11222333000182', false],
    ['11222333000191', false],
    ['00000000000000', false],
    ['11111111111111', false],
    ['11.222.333/0001-81', false],
    ['1122233300018', false],
    ['112223330001811', false],
    ['52998224725', false],
    ['', false],
  ])('%j -> %s', (s, expected) => {
    expect(isValidCnpj(s)).toBe(expected);
  });
});

describe('documentType', () => {
  it.each([
    ['52998224725', 'CPF'],
    ['11222333000181', 'CNPJ'],
    ['12ABC34501DE35', 'CNPJ'],
    ['52998224726', undefined],
    ['11222333000182', undefined],
    ['00000000000', undefined],
    ['abc', undefined],
  ])('%j -> %s', (s, expected) => {
    expect(documentType(s)).toBe(expected);
  });
});

describe('maskDocument', () => {
  it.each([
    ['52998224725', '***.982.247-**'],
    ['12345678909', '***.456.789-**'],
    ['529.982.247-25', '***.982.247-**'],
    ['52998224726', '***.982.247-**'], // masked by shape even with bad check digits
    ['12345678000195', '**.345.678/0001-**'],
    ['11222333000181', '**.222.333/0001-**'],
    ['11.222.333/0001-81', '**.222.333/0001-**'],
    ['12ABC34501DE35', '**.ABC.345/01DE-**'],
    ['***.456.789-**', '***.456.789-**'], // already masked
    ['**.345.678/0001-**', '**.345.678/0001-**'],
    ['1234', '***'],
    ['not a document', '***'],
    ['', '***'],
    ['123456789012345', '***'],
  ])('%j -> %j', (s, expected) => {
    expect(maskDocument(s)).toBe(expected);
  });

  it('never returns the raw value of odd input', () => {
    for (const raw of ['1234567890', 'abcdefghijk', 'secret', '5299822472X']) {
      expect(maskDocument(raw)).not.toContain(raw);
    }
  });
});
