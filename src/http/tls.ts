import { readFileSync } from 'node:fs';
import type { Server as TlsServer } from 'node:tls';
import type { Logger } from 'pino';
import type { TlsConfig } from '../config.ts';

function readKeyPair(tls: TlsConfig) {
  return { cert: readFileSync(tls.certFile), key: readFileSync(tls.keyFile) };
}

/**
 * Fastify's server options for HTTPS: HTTP/2 with HTTP/1.1 allowed on the same port. With
 * `TLS_CLIENT_AUTH=optional` the handshake asks for a client certificate without requiring one, and
 * without judging who issued it: client certificates are self-signed and registered one by one
 * (their fingerprint is the identity), so the handshake's part is the proof of the private key.
 */
export function httpsServerOptions(tls: TlsConfig | undefined) {
  if (!tls) return {};
  return {
    http2: true as const,
    https: {
      allowHTTP1: true,
      ...readKeyPair(tls),
      requestCert: tls.clientAuth === 'optional',
      rejectUnauthorized: false,
    },
  };
}

/**
 * SIGHUP re-reads the certificate and key files into the listening server: new handshakes use them,
 * open connections go on undisturbed. A pair that cannot be read or does not match keeps the old one.
 * Answers the function that removes the handler.
 */
export function reloadCertificatesOnSighup(server: unknown, tls: TlsConfig | undefined, logger: Logger): () => void {
  if (!tls) return () => {};
  const reload = () => {
    try {
      (server as TlsServer).setSecureContext(readKeyPair(tls));
      logger.info({ certFile: tls.certFile }, 'TLS certificate reloaded');
    } catch (error) {
      logger.error({ err: error, certFile: tls.certFile, keyFile: tls.keyFile }, 'TLS certificate reload failed; the previous one stays in use');
    }
  };
  process.on('SIGHUP', reload);
  return () => process.off('SIGHUP', reload);
}
