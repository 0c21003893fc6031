import { X509Certificate } from 'node:crypto';
import type { TLSSocket } from 'node:tls';
import type { FastifyRequest } from 'fastify';
import proxyaddr from 'proxy-addr';
import type { Config } from '../config.ts';
import type { PresentedCertificate } from '../services/auth/token-grant.service.ts';
import { parseCertificate } from '../services/auth/x509.ts';

/** Whether the peer at `address` (`hop` 0: the socket's own peer) may speak for the client. */
export type ProxyTrust = (address: string, hop: number) => boolean;

const compiled = new WeakMap<Config, ProxyTrust>();

/** TRUSTED_PROXIES as a predicate, compiled once per configuration (also Fastify's `trustProxy`). */
export function proxyTrust(config: Config): ProxyTrust {
  let trust = compiled.get(config);
  if (!trust) {
    const list = config.trustedProxies;
    trust = list === 'any' ? () => true : proxyaddr.compile([...list]);
    compiled.set(config, trust);
  }
  return trust;
}

const forwardedCompiled = new WeakMap<Config, ProxyTrust>();

/**
 * Who may state the client's address (`X-Forwarded-For`, `-Proto`): Fastify's `trustProxy`. Only
 * the proxies TRUSTED_PROXIES lists: the plain-HTTP sandbox's default "any caller" is about the
 * certificate header (its curl examples send it directly), never the address, so a caller cannot
 * make itself loopback (the sandbox's admin exemption) or a new address (a fresh failure budget)
 * with a header; without a listed proxy the address is the socket's (issue 30 item 6).
 */
export function forwardedForTrust(config: Config): ProxyTrust {
  let trust = forwardedCompiled.get(config);
  if (!trust) {
    const list = config.trustedProxies;
    trust = list === 'any' ? () => false : proxyTrust(config);
    forwardedCompiled.set(config, trust);
  }
  return trust;
}

/**
 * The one answer to "where does the client certificate come from": the `X-SSL-Client-Cert` header
 * when a trusted proxy sent it (it terminated TLS and checked the client's key), otherwise the
 * certificate the client proved on our own TLS handshake. A header from anyone else is not believed.
 */
export function presentedCertificate(request: FastifyRequest, config: Config): PresentedCertificate {
  const header = request.headers['x-ssl-client-cert'];
  const hasHeader = header !== undefined && header !== '';
  // Over HTTP/2 `raw.socket` stands for the session's TLS socket.
  const socket = request.raw.socket as TLSSocket;
  if (hasHeader && proxyTrust(config)(socket.remoteAddress ?? '', 0)) return { source: 'proxy-header', header };
  if (socket.encrypted) {
    const peer = socket.getPeerCertificate();
    if (peer?.raw) return { source: 'tls-handshake', pem: new X509Certificate(peer.raw).toString() };
    return { source: 'none', why: 'tls-without-certificate' };
  }
  return { source: 'none', why: hasHeader ? 'untrusted-header' : 'no-header' };
}

/** The client certificate a resource call came with; `fingerprint` is undefined when it cannot be read. */
export interface CallCertificate {
  source: 'tls' | 'header';
  /** SHA-256 of the DER, lowercase hex (as the certificate registry and tokens' `cnf` key it). */
  fingerprint: string | undefined;
}

/**
 * The certificate a resource call presents, for the token binding check (RFC 8705), decided by the
 * same rule as the token routes (`presentedCertificate`): undefined when it carries none, or only a
 * header from a caller that is not a trusted proxy.
 */
export function callCertificate(request: FastifyRequest, config: Config): CallCertificate | undefined {
  const presented = presentedCertificate(request, config);
  if (presented.source === 'tls-handshake') return { source: 'tls', fingerprint: parseCertificate(presented.pem)?.fingerprint };
  if (presented.source === 'none') return undefined;
  // Two headers are two certificates: which one the proxy meant cannot be known, so neither counts.
  if (Array.isArray(presented.header)) return { source: 'header', fingerprint: undefined };
  let pem: string;
  try {
    pem = decodeURIComponent(presented.header);
  } catch {
    return { source: 'header', fingerprint: undefined };
  }
  return { source: 'header', fingerprint: parseCertificate(pem)?.fingerprint };
}
