import { createHash } from 'node:crypto';
import { TLSSocket } from 'node:tls';
import type { FastifyRequest } from 'fastify';
import { parseCertificate } from '../services/auth/x509.ts';

/** A client certificate that came with a request; `fingerprint` is undefined when it cannot be read. */
export interface PresentedCertificate {
  source: 'tls' | 'header';
  /** SHA-256 of the DER, lowercase hex (as the certificate registry and tokens' `cnf` key it). */
  fingerprint: string | undefined;
}

/**
 * Where a request's client certificate came from, decided in this one place: the TLS handshake when
 * this service terminates TLS and the client sent one, else the `X-SSL-Client-Cert` header a
 * TLS-terminating proxy sets (percent-encoded PEM). Undefined when neither carries one.
 */
export function presentedCertificate(request: FastifyRequest): PresentedCertificate | undefined {
  const socket = request.raw.socket;
  if (socket instanceof TLSSocket) {
    const peer = socket.getPeerCertificate();
    if (peer?.raw) return { source: 'tls', fingerprint: createHash('sha256').update(peer.raw).digest('hex') };
  }
  const header = request.headers['x-ssl-client-cert'];
  if (header === undefined || header === '') return undefined;
  // Two headers are two certificates: which one the proxy meant cannot be known, so neither counts.
  if (Array.isArray(header)) return { source: 'header', fingerprint: undefined };
  let pem: string;
  try {
    pem = decodeURIComponent(header);
  } catch {
    return { source: 'header', fingerprint: undefined };
  }
  return { source: 'header', fingerprint: parseCertificate(pem)?.fingerprint };
}
