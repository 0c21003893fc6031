import { describe, expect, it } from 'vitest';
import { crc16 } from './crc16.ts';

describe('crc16 (CCITT-FALSE)', () => {
  it.each([
    ['123456789', '29B1'], // the catalogue check value
    ['', 'FFFF'], // init value, no xorout
    ['A', 'B915'],
    // BCB's static example up to and including "6304", and its published CRC.
    [
      '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***6304',
      '1D3D',
    ],
    // A CRC with a leading zero hex digit must keep 4 characters.
    [
      '00020126510014br.gov.bcb.pix0115thalesog@me.com0210Pedido 123520400005303986540510.005802BR5914THALES OGLIARI6015SAO MIGUEL DO O62070503***6304',
      '0DC6',
    ],
    // Over UTF-8 bytes, not UTF-16 code units (samples.md B243).
    [
      '00020126830014br.gov.bcb.pix01364004901d-bd85-4769-8e52-cb4c42c506dc0221Jornada pagador 57768520400005303986540573.625802BR5903Pix6008Brasília62080504oooo6304',
      'B243',
    ],
  ])('%j -> %s', (text, expected) => {
    expect(crc16(text)).toBe(expected);
  });
});
