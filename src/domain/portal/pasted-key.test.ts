import { describe, expect, it } from 'vitest';
import { isValidCpf } from '../documents.ts';
import type { PublicKeyType } from '../pix-keys.ts';
import { normalisePastedKey } from './pasted-key.ts';

/** A valid CPF that is also a mobile number (area 11, then 9 and eight digits). */
const CPF_AND_MOBILE = '11987654374';

describe('keys as people paste them (issue 30 item 1)', () => {
  const accepted: Array<[string, PublicKeyType | undefined, PublicKeyType, string]> = [
    // PHONE, chosen or told by its form
    ['+55 11 98765-4321', 'PHONE', 'PHONE', '11987654321'],
    ['+5511987654321', 'PHONE', 'PHONE', '11987654321'],
    ['(11) 98765-4321', 'PHONE', 'PHONE', '11987654321'],
    ['11 98765 4321', 'PHONE', 'PHONE', '11987654321'],
    ['5511987654321', 'PHONE', 'PHONE', '11987654321'],
    ['011 98765-4321', 'PHONE', 'PHONE', '11987654321'],
    ['(21) 3456-7890', 'PHONE', 'PHONE', '2134567890'],
    ['+55 11 98765-4321', undefined, 'PHONE', '11987654321'],
    ['+5511987654321', undefined, 'PHONE', '11987654321'],
    ['(11) 98765-4321', undefined, 'PHONE', '11987654321'],
    ['11 98765 4321', undefined, 'PHONE', '11987654321'],
    ['11987654321', undefined, 'PHONE', '11987654321'],
    ['2134567890', undefined, 'PHONE', '2134567890'],
    // CPF and CNPJ with or without dots, dashes and slash
    ['111.444.777-35', 'DOCUMENT', 'DOCUMENT', '11144477735'],
    ['11144477735', 'DOCUMENT', 'DOCUMENT', '11144477735'],
    ['111 444 777 35', 'DOCUMENT', 'DOCUMENT', '11144477735'],
    ['111.444.777-35', undefined, 'DOCUMENT', '11144477735'],
    ['11144477735', undefined, 'DOCUMENT', '11144477735'],
    ['11.222.333/0001-81', 'DOCUMENT', 'DOCUMENT', '11222333000181'],
    ['11222333000181', 'DOCUMENT', 'DOCUMENT', '11222333000181'],
    ['11.222.333/0001-81', undefined, 'DOCUMENT', '11222333000181'],
    ['11222333000181', undefined, 'DOCUMENT', '11222333000181'],
    // Formatted as a CPF, it is one even when its digits could dial a mobile.
    [`${CPF_AND_MOBILE.slice(0, 3)}.${CPF_AND_MOBILE.slice(3, 6)}.${CPF_AND_MOBILE.slice(6, 9)}-${CPF_AND_MOBILE.slice(9)}`, undefined, 'DOCUMENT', CPF_AND_MOBILE],
    // Chosen, the type decides.
    [CPF_AND_MOBILE, 'DOCUMENT', 'DOCUMENT', CPF_AND_MOBILE],
    [CPF_AND_MOBILE, 'PHONE', 'PHONE', CPF_AND_MOBILE],
    // E-mail trimmed and lower-cased
    ['  Maria.Souza@Example.COM ', 'EMAIL', 'EMAIL', 'maria.souza@example.com'],
    ['Maria.Souza@Example.COM', undefined, 'EMAIL', 'maria.souza@example.com'],
    // EVP in either case, with or without hyphens
    ['7D9F3C1A-2B4E-4F6A-8C0D-1E2F3A4B5C6D', 'RANDOM', 'RANDOM', '7d9f3c1a-2b4e-4f6a-8c0d-1e2f3a4b5c6d'],
    ['7d9f3c1a-2b4e-4f6a-8c0d-1e2f3a4b5c6d', undefined, 'RANDOM', '7d9f3c1a-2b4e-4f6a-8c0d-1e2f3a4b5c6d'],
    ['7D9F3C1A-2B4E-4F6A-8C0D-1E2F3A4B5C6D', undefined, 'RANDOM', '7d9f3c1a-2b4e-4f6a-8c0d-1e2f3a4b5c6d'],
    ['7D9F3C1A2B4E4F6A8C0D1E2F3A4B5C6D', undefined, 'RANDOM', '7d9f3c1a-2b4e-4f6a-8c0d-1e2f3a4b5c6d'],
    // Invisible spaces copied from a chat
    ['\u200b+55 11 98765-4321\u00a0', undefined, 'PHONE', '11987654321'],
  ];
  it.each(accepted)('%j typed as %s is the %s key %s', (raw, chosen, type, key) => {
    expect(normalisePastedKey(raw, chosen)).toEqual({ ok: true, type, key });
  });

  it('the CPF-and-mobile fixture is both', () => {
    expect(isValidCpf(CPF_AND_MOBILE)).toBe(true);
    expect(isValidCpf('11987654321')).toBe(false);
  });

  const refused: Array<[string, PublicKeyType | undefined, string, PublicKeyType | undefined]> = [
    ['', undefined, 'empty', undefined],
    ['   ', 'EMAIL', 'empty', 'EMAIL'],
    [CPF_AND_MOBILE, undefined, 'ambiguous', undefined],
    ['+1 415 555 0100', undefined, 'foreignPhone', 'PHONE'],
    ['+1 415 555 0100', 'PHONE', 'foreignPhone', 'PHONE'],
    ['111.444.777-36', 'DOCUMENT', 'invalid', 'DOCUMENT'],
    ['111.444.777-36', undefined, 'invalid', 'DOCUMENT'],
    ['11.222.333/0001-80', undefined, 'invalid', 'DOCUMENT'],
    ['maria@', undefined, 'invalid', 'EMAIL'],
    ['not-a-uuid', 'RANDOM', 'invalid', 'RANDOM'],
    ['(00) 98765-4321', undefined, 'invalid', 'PHONE'],
    ['12345', undefined, 'invalid', 'PHONE'],
    ['11987654321', 'DOCUMENT', 'invalid', 'DOCUMENT'],
  ];
  it.each(refused)('%j typed as %s is refused: %s (read as %s)', (raw, chosen, problem, type) => {
    expect(normalisePastedKey(raw, chosen)).toEqual({ ok: false, problem, ...(type ? { type } : {}) });
  });
});
