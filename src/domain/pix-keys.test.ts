import { describe, expect, it } from 'vitest';
import { detectDictKey, toDictKey, validatePublicKey, type PublicKeyType } from './pix-keys.ts';

const LONG_LOCAL = 'a'.repeat(65); // 65 + '@example.com' (12) = 77
const UUID = '3ec9d2f9-5f03-4e0e-820d-63a81e769e87';

describe('validatePublicKey: accepted keys and their normalised form', () => {
  it.each<[PublicKeyType, string, string]>([
    ['DOCUMENT', '52998224725', '52998224725'],
    ['DOCUMENT', '11222333000181', '11222333000181'],
    ['DOCUMENT', '12ABC34501DE35', '12ABC34501DE35'], // alphanumeric CNPJ (IN RFB 2.229/2024)
    ['EMAIL', 'fulano@example.com', 'fulano@example.com'],
    ['EMAIL', 'Fulano.Tal+pix@Example.COM.br', 'fulano.tal+pix@example.com.br'],
    ['EMAIL', `${LONG_LOCAL}@example.com`, `${LONG_LOCAL}@example.com`],
    ['EMAIL', 'x@notfound.example', 'x@notfound.example'],
    ['PHONE', '11987654321', '11987654321'],
    ['PHONE', '1133334444', '1133334444'],
    ['PHONE', '99987654321', '99987654321'],
    ['RANDOM', UUID, UUID],
    ['RANDOM', UUID.toUpperCase(), UUID],
    ['RANDOM', UUID.replace(/-/g, ''), UUID],
    ['RANDOM', UUID.replace(/-/g, '').toUpperCase(), UUID],
    ['RANDOM', '00000000-0000-0000-0000-000000000000', '00000000-0000-0000-0000-000000000000'],
    ['RANDOM', '123e4567-e12b-12d1-a456-426655440000', '123e4567-e12b-12d1-a456-426655440000'], // any version
  ])('%s %j -> %j', (type, key, normalized) => {
    expect(validatePublicKey(key, type)).toEqual({ ok: true, normalized });
  });
});

describe('validatePublicKey: rejected keys name the rule', () => {
  it.each<[PublicKeyType, string, RegExp]>([
    ['DOCUMENT', '529.982.247-25', /digits only/],
    ['DOCUMENT', '12abc34501de35', /upper case/],
    ['DOCUMENT', '12ABC34501DE34', /CNPJ.*check digits/],
    ['DOCUMENT', '12.ABC.345/01DE-35', /digits only/],
    ['DOCUMENT', '5299822472', /11 digits.*14 characters/],
    ['DOCUMENT', '52998224726', /CPF.*check digits/],
    ['DOCUMENT', '00000000000', /CPF.*check digits/],
    ['DOCUMENT', '11222333000182', /CNPJ.*check digits/],
    ['EMAIL', `${LONG_LOCAL}a@example.com`, /at most 77/],
    ['EMAIL', 'fulano', /valid e-mail/],
    ['EMAIL', 'fulano@localhost', /valid e-mail/],
    ['EMAIL', 'fulano@@example.com', /valid e-mail/],
    ['EMAIL', '.fulano@example.com', /valid e-mail/],
    ['EMAIL', 'ful..ano@example.com', /valid e-mail/],
    ['EMAIL', 'fulano@-example.com', /valid e-mail/],
    ['EMAIL', 'fu lano@example.com', /valid e-mail/],
    ['EMAIL', 'fulano@exa_mple.com', /valid e-mail/],
    ['PHONE', '+5511987654321', /country code/],
    ['PHONE', '5511987654321', /10 or 11 digits/],
    ['PHONE', '987654321', /10 or 11 digits/],
    ['PHONE', '(11) 98765-4321', /10 or 11 digits/],
    ['PHONE', '01987654321', /area code/],
    ['PHONE', '10987654321', /area code/],
    ['RANDOM', UUID.slice(0, -1), /UUID/],
    ['RANDOM', UUID.replace('3', 'g'), /UUID/],
    ['RANDOM', `{${UUID}}`, /UUID/],
    ['RANDOM', '3ec9d2f95f03-4e0e-820d-63a81e769e87', /UUID/], // hyphens are all or nothing
    ['EMAIL', '', /empty/],
  ])('%s %j', (type, key, reason) => {
    const result = validatePublicKey(key, type);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(reason);
  });

  it('rejects an unknown key type', () => {
    const result = validatePublicKey('52998224725', 'CPF' as PublicKeyType);
    expect(result).toEqual({ ok: false, reason: expect.stringMatching(/DOCUMENT, EMAIL, PHONE or RANDOM/) });
  });
});

describe('detectDictKey', () => {
  it.each([
    ['52998224725', 'CPF', '52998224725'],
    ['11222333000181', 'CNPJ', '11222333000181'],
    ['12ABC34501DE35', 'CNPJ', '12ABC34501DE35'],
    ['Fulano@Example.com', 'EMAIL', 'fulano@example.com'],
    ['+5511987654321', 'PHONE', '+5511987654321'],
    ['+551133334444', 'PHONE', '+551133334444'],
    [UUID, 'EVP', UUID],
    [UUID.toUpperCase(), 'EVP', UUID],
  ])('%j -> %s %j', (key, type, normalized) => {
    expect(detectDictKey(key)).toEqual({ type, normalized });
  });

  it.each([
    '52998224726', // CPF with bad check digits is not a phone either: phones carry +55
    '11222333000182',
    '11987654321', // phone without +55
    '+15551234567', // not a Brazilian phone
    '+55119876543210',
    '+550187654321',
    UUID.replace(/-/g, ''), // DICT's EVP is always hyphenated
    'fulano@localhost',
    `${'a'.repeat(66)}@example.com`,
    '12abc34501de35', // upper case only
    '12ABC34501DE34', // wrong check digit
    '',
    'hello',
  ])('%j -> undefined', (key) => {
    expect(detectDictKey(key)).toBeUndefined();
  });
});

describe('toDictKey', () => {
  it.each<[string, PublicKeyType, string, string]>([
    ['52998224725', 'DOCUMENT', 'CPF', '52998224725'],
    ['11222333000181', 'DOCUMENT', 'CNPJ', '11222333000181'],
    ['12ABC34501DE35', 'DOCUMENT', 'CNPJ', '12ABC34501DE35'],
    ['Fulano@Example.com', 'EMAIL', 'EMAIL', 'fulano@example.com'],
    ['11987654321', 'PHONE', 'PHONE', '+5511987654321'],
    [UUID.replace(/-/g, '').toUpperCase(), 'RANDOM', 'EVP', UUID],
  ])('%j as %s -> %s %j', (key, publicType, type, normalized) => {
    const dict = toDictKey(key, publicType);
    expect(dict).toEqual({ type, normalized });
    // The DICT form is what the compatible family would send for the same key: one directory entry.
    expect(detectDictKey(normalized)).toEqual(dict);
  });

  it.each<[string, PublicKeyType]>([
    ['52998224726', 'DOCUMENT'],
    ['+5511987654321', 'PHONE'],
    ['not-a-uuid', 'RANDOM'],
    ['fulano', 'EMAIL'],
  ])('%j as %s -> undefined', (key, publicType) => {
    expect(toDictKey(key, publicType)).toBeUndefined();
  });
});
