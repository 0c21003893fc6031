import 'reflect-metadata'; // before @peculiar/x509
import { mkdtempSync, writeFileSync } from 'node:fs';
import { webcrypto } from 'node:crypto';
import https from 'node:https';
import http2 from 'node:http2';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(webcrypto as unknown as Crypto);

const EC = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;

/** A self-signed server certificate for 127.0.0.1 and localhost, made now. */
export async function makeServerCertificate(commonName = 'pix-account-service test') {
  const keys = (await webcrypto.subtle.generateKey(EC, true, ['sign', 'verify'])) as CryptoKeyPair;
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: Buffer.from(webcrypto.getRandomValues(new Uint8Array(8))).toString('hex').replace(/^[89a-f]/, '1'),
    name: `CN=${commonName}`,
    notBefore: new Date(Date.now() - 60_000),
    notAfter: new Date(Date.now() + 86_400_000),
    signingAlgorithm: EC,
    keys,
    extensions: [
      new x509.SubjectAlternativeNameExtension([
        { type: 'ip', value: '127.0.0.1' },
        { type: 'dns', value: 'localhost' },
      ]),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth], false),
    ],
  });
  const pkcs8 = await webcrypto.subtle.exportKey('pkcs8', keys.privateKey);
  return { certPem: cert.toString('pem'), keyPem: x509.PemConverter.encode(pkcs8, 'PRIVATE KEY') };
}

/** Writes a server certificate and key into a new temporary folder; answers their paths. */
export function writeKeyPair(pair: { certPem: string; keyPem: string }, dir = mkdtempSync(path.join(tmpdir(), 'pix-tls-'))) {
  const certFile = path.join(dir, 'server-cert.pem');
  const keyFile = path.join(dir, 'server-key.pem');
  writeFileSync(certFile, pair.certPem);
  writeFileSync(keyFile, pair.keyPem);
  return { dir, certFile, keyFile };
}

export interface ClientIdentity {
  cert?: string;
  key?: string;
}

export interface Answer {
  status: number;
  body: any;
  /** The local port of the TCP connection used (tells whether a connection was reused). */
  localPort: number | undefined;
  protocol: string;
}

/** One HTTPS request over HTTP/1.1, trusting `ca` (the server's self-signed certificate). */
export function https1(
  port: number,
  ca: string,
  request: { method: string; path: string; headers?: Record<string, string>; body?: unknown; identity?: ClientIdentity; agent?: https.Agent },
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const payload = request.body === undefined ? undefined : JSON.stringify(request.body);
    const req = https.request(
      {
        host: '127.0.0.1',
        port,
        method: request.method,
        path: request.path,
        ca,
        ...request.identity,
        ...(request.agent ? { agent: request.agent } : { agent: false }),
        headers: { ...(payload ? { 'content-type': 'application/json' } : {}), ...request.headers },
      },
      (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () =>
          resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : undefined, localPort: res.socket?.localPort, protocol: `HTTP/${res.httpVersion}` }),
        );
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** One request over HTTP/2 (ALPN h2) on a new session. */
export function https2(
  port: number,
  ca: string,
  request: { method: string; path: string; headers?: Record<string, string>; body?: unknown; identity?: ClientIdentity },
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const session = http2.connect(`https://127.0.0.1:${port}`, { ca, ...request.identity });
    session.on('error', reject);
    const payload = request.body === undefined ? undefined : JSON.stringify(request.body);
    const stream = session.request({
      ':method': request.method,
      ':path': request.path,
      ...(payload ? { 'content-type': 'application/json' } : {}),
      ...request.headers,
    });
    let status = 0;
    let text = '';
    stream.on('response', (headers) => (status = Number(headers[':status'])));
    stream.on('data', (d) => (text += d));
    stream.on('end', () => {
      const localPort = session.socket?.localPort;
      session.close();
      resolve({ status, body: text ? JSON.parse(text) : undefined, localPort, protocol: `h2:${session.alpnProtocol}` });
    });
    stream.on('error', reject);
    stream.end(payload);
  });
}
