import { once } from 'node:events';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeClientCertificate, parseCertificate } from '../services/auth/x509.ts';
import type { Config } from '../config.ts';
import { callCertificate, type CallCertificate } from './client-certificate.ts';

const window = { notBefore: new Date(Date.now() - 86_400_000), notAfter: new Date(Date.now() + 86_400_000) };

describe('callCertificate: where a resource call\'s client certificate came from', () => {
  let server: https.Server;
  let port: number;
  let client: Awaited<ReturnType<typeof makeClientCertificate>>;
  let other: Awaited<ReturnType<typeof makeClientCertificate>>;
  let seen: CallCertificate | undefined | 'none';
  // A service doing TLS itself trusts no proxy unless TRUSTED_PROXIES says so.
  let config = { trustedProxies: [] } as unknown as Config;

  beforeAll(async () => {
    const serverCert = await makeClientCertificate({ commonName: 'localhost', ...window });
    client = await makeClientCertificate({ commonName: 'client a', ...window });
    other = await makeClientCertificate({ commonName: 'client b', ...window });
    server = https.createServer(
      { cert: serverCert.certificatePem, key: serverCert.privateKeyPem, requestCert: true, rejectUnauthorized: false },
      (req, res) => {
        seen = callCertificate({ raw: req, headers: req.headers } as unknown as FastifyRequest, config) ?? 'none';
        res.end('ok');
      },
    );
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  async function call(options: { cert?: string; key?: string; header?: string }) {
    seen = undefined;
    await new Promise<void>((resolve, reject) => {
      const req = https.request(
        {
          host: '127.0.0.1',
          port,
          path: '/',
          rejectUnauthorized: false,
          agent: false,
          ...(options.cert ? { cert: options.cert, key: options.key } : {}),
          headers: options.header ? { 'x-ssl-client-cert': options.header } : {},
        },
        (res) => res.resume().on('end', resolve),
      );
      req.on('error', reject).end();
    });
    return seen;
  }

  it('reads the certificate of the TLS handshake, and prefers it to a header the client wrote itself', async () => {
    const fingerprint = parseCertificate(client.certificatePem)!.fingerprint;
    expect(await call({ cert: client.certificatePem, key: client.privateKeyPem })).toEqual({ source: 'tls', fingerprint });
    expect(
      await call({ cert: client.certificatePem, key: client.privateKeyPem, header: encodeURIComponent(other.certificatePem) }),
    ).toEqual({ source: 'tls', fingerprint });
  });

  it('believes X-SSL-Client-Cert only from a trusted proxy, and reports no certificate when neither carries one', async () => {
    config = { trustedProxies: 'any' } as unknown as Config;
    expect(await call({ header: encodeURIComponent(other.certificatePem) })).toEqual({
      source: 'header',
      fingerprint: parseCertificate(other.certificatePem)!.fingerprint,
    });
    expect(await call({ header: '%E0%A4%A' })).toEqual({ source: 'header', fingerprint: undefined });
    expect(await call({})).toBe('none');
    config = { trustedProxies: [] } as unknown as Config;
    expect(await call({ header: encodeURIComponent(other.certificatePem) })).toBe('none');
  });
});
