/**
 * CRC16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, xorout 0), the BR Code checksum.
 * Computed over UTF-8 bytes, as every checked sample was; for the ASCII payloads we accept this
 * equals the characters themselves.
 */
const encoder = new TextEncoder();

export function crc16(text: string): string {
  let crc = 0xffff;
  for (const byte of encoder.encode(text)) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) {
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    }
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}
