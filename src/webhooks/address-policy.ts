import { isIP } from 'node:net';

/**
 * Which resolved addresses a production relay may connect to (SSRF guard). Refused: anything that
 * is not a public unicast address: private, loopback, link-local (which holds the cloud metadata
 * address 169.254.169.254), unique-local, CGNAT, multicast, reserved, documentation and benchmark
 * ranges. IPv6 forms that embed an IPv4 address (IPv4-mapped, IPv4-compatible, NAT64) are judged by
 * that IPv4 address.
 */

interface Range {
  bytes: number[];
  prefix: number;
  reason: string;
}

const v4 = (cidr: string, reason: string): Range => {
  const [addr, prefix] = cidr.split('/') as [string, string];
  return { bytes: addr.split('.').map(Number), prefix: Number(prefix), reason };
};

const v6 = (cidr: string, reason: string): Range => {
  const [addr, prefix] = cidr.split('/') as [string, string];
  return { bytes: ipv6Bytes(addr)!, prefix: Number(prefix), reason };
};

const IPV4_BLOCKED: Range[] = [
  v4('0.0.0.0/8', 'unspecified ("this network")'),
  v4('10.0.0.0/8', 'private'),
  v4('100.64.0.0/10', 'carrier-grade NAT'),
  v4('127.0.0.0/8', 'loopback'),
  v4('169.254.169.254/32', 'cloud metadata'),
  v4('169.254.0.0/16', 'link-local'),
  v4('172.16.0.0/12', 'private'),
  v4('192.0.0.0/24', 'IETF protocol assignments'),
  v4('192.0.2.0/24', 'documentation'),
  v4('192.88.99.0/24', '6to4 relay anycast'),
  v4('192.168.0.0/16', 'private'),
  v4('198.18.0.0/15', 'benchmarking'),
  v4('198.51.100.0/24', 'documentation'),
  v4('203.0.113.0/24', 'documentation'),
  v4('224.0.0.0/4', 'multicast'),
  v4('240.0.0.0/4', 'reserved'),
];

const IPV6_BLOCKED: Range[] = [
  v6('::/128', 'unspecified'),
  v6('::1/128', 'loopback'),
  v6('100::/64', 'discard-only'),
  v6('2001:db8::/32', 'documentation'),
  v6('2001::/23', 'IETF protocol assignments'),
  v6('fc00::/7', 'unique-local'),
  v6('fe80::/10', 'link-local'),
  v6('fec0::/10', 'site-local'),
  v6('ff00::/8', 'multicast'),
];

// IPv6 prefixes whose last 32 bits are an IPv4 address.
const EMBEDDED_V4: Range[] = [
  v6('::ffff:0:0/96', 'IPv4-mapped'),
  v6('::/96', 'IPv4-compatible'),
  v6('64:ff9b::/96', 'NAT64'),
  v6('64:ff9b:1::/48', 'local NAT64'),
];

function matches(bytes: number[], range: Range): boolean {
  let bits = range.prefix;
  for (let i = 0; bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if ((bytes[i]! & mask) !== (range.bytes[i]! & mask)) return false;
  }
  return true;
}

/** 16 bytes of an IPv6 address (also with an embedded dotted IPv4 tail), or undefined. */
export function ipv6Bytes(address: string): number[] | undefined {
  let text = address.replace(/^\[|\]$/g, '').split('%')[0]!;
  if (isIP(text) !== 6) return undefined;
  // A dotted IPv4 tail becomes its two hex words: ::ffff:127.0.0.1 -> ::ffff:7f00:1.
  text = text.replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (_m, a, b, c, d) =>
    `${((+a << 8) | +b).toString(16)}:${((+c << 8) | +d).toString(16)}`,
  );
  const words = (s: string) => (s === '' ? [] : s.split(':').map((w) => parseInt(w, 16)));
  let all: number[];
  if (text.includes('::')) {
    const [left, right] = text.split('::') as [string, string];
    const l = words(left);
    const r = words(right);
    all = [...l, ...new Array<number>(8 - l.length - r.length).fill(0), ...r];
  } else {
    all = words(text);
  }
  if (all.length !== 8 || all.some((w) => !(w >= 0 && w <= 0xffff))) return undefined;
  return all.flatMap((w) => [w >> 8, w & 0xff]);
}

export type AddressVerdict = { allowed: true } | { allowed: false; reason: string };

/**
 * The verdict for every address a host name resolved to: refused when ANY is not public (a name with
 * one public and one private address could be answered either way at connect time).
 */
export function checkAddresses(addresses: ReadonlyArray<{ address: string }>): AddressVerdict {
  for (const entry of addresses) {
    const verdict = checkAddress(entry.address);
    if (!verdict.allowed) return verdict;
  }
  return { allowed: true };
}

/** The verdict for one IP address (v4 or v6 text); anything that is not an IP address is refused. */
export function checkAddress(address: string): AddressVerdict {
  const text = address.replace(/^\[|\]$/g, '');
  const family = isIP(text.split('%')[0]!);
  if (family === 4) {
    const bytes = text.split('.').map(Number);
    const hit = IPV4_BLOCKED.find((r) => matches(bytes, r));
    return hit ? { allowed: false, reason: `${text} is a ${hit.reason} address` } : { allowed: true };
  }
  if (family === 6) {
    const bytes = ipv6Bytes(text)!;
    const embedding = EMBEDDED_V4.find((r) => matches(bytes, r));
    // `::` and `::1` sit inside ::/96 but are IPv6's own unspecified and loopback addresses.
    const own = IPV6_BLOCKED.find((r) => r.prefix === 128 && matches(bytes, r));
    if (own) return { allowed: false, reason: `${text} is an IPv6 ${own.reason} address` };
    if (embedding) {
      const inner = bytes.slice(12).join('.');
      const verdict = checkAddress(inner);
      return verdict.allowed ? verdict : { allowed: false, reason: `${text} (${embedding.reason} ${inner}): ${verdict.reason}` };
    }
    const hit = IPV6_BLOCKED.find((r) => matches(bytes, r));
    return hit ? { allowed: false, reason: `${text} is an IPv6 ${hit.reason} address` } : { allowed: true };
  }
  return { allowed: false, reason: `${address} is not an IP address` };
}
