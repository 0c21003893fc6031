import { describe, expect, it } from 'vitest';
import { matchingStep, newRecoveryCode, newTotpSecret, normaliseRecoveryCode, otpauthUri, stepOf, totpCode } from './totp.ts';

// RFC 6238 appendix B, SHA-1: the seed "12345678901234567890" (ASCII) in base32. The RFC's codes have
// 8 digits; a 6-digit code is the same number modulo 10^6, i.e. their last 6 digits.
const RFC_SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
const RFC_VECTORS: Array<[number, string]> = [
  [59, '94287082'],
  [1111111109, '07081804'],
  [1111111111, '14050471'],
  [1234567890, '89005924'],
  [2000000000, '69279037'],
  [20000000000, '65353130'],
];

describe('TOTP (RFC 6238)', () => {
  it.each(RFC_VECTORS)('at %i s the code is the last 6 digits of %s', (seconds, rfc) => {
    const at = new Date(seconds * 1000);
    expect(totpCode(RFC_SECRET, at)).toBe(rfc.slice(-6));
    expect(matchingStep(RFC_SECRET, rfc.slice(-6), at)).toBe(stepOf(at));
  });

  it('accepts one step of drift either side, no more', () => {
    const at = new Date(1_700_000_000_000);
    const code = totpCode(RFC_SECRET, at);
    expect(matchingStep(RFC_SECRET, code, new Date(at.getTime() + 30_000))).toBe(stepOf(at));
    expect(matchingStep(RFC_SECRET, code, new Date(at.getTime() - 30_000))).toBe(stepOf(at));
    expect(matchingStep(RFC_SECRET, code, new Date(at.getTime() + 90_000))).toBeUndefined();
    expect(matchingStep(RFC_SECRET, 'abcdef', at)).toBeUndefined();
  });

  it('makes 160-bit secrets and an otpauth URI any app reads', () => {
    const secret = newTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const uri = new URL(otpauthUri(secret, 'PIX Account', 'ana@example.com'));
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.host).toBe('totp');
    expect(uri.searchParams.get('secret')).toBe(secret);
    expect(uri.searchParams.get('digits')).toBe('6');
    expect(uri.searchParams.get('period')).toBe('30');
  });

  it('recovery codes: 10 characters without look-alikes, read in any case with or without the dash', () => {
    const code = newRecoveryCode();
    expect(code).toMatch(/^[0-9a-hjkmnp-tv-z]{5}-[0-9a-hjkmnp-tv-z]{5}$/);
    expect(normaliseRecoveryCode(` ${code.toUpperCase()} `)).toBe(code.replace('-', ''));
    expect(normaliseRecoveryCode('123456')).toBeUndefined();
  });
});
