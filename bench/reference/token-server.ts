/**
 * The bare reference for the token endpoint: what issuing a token minimally costs, without the
 * service's logic (X.509 parsing, revocation, scopes, audit, error formats).
 *
 *   POST /api/auth/token {clientId, clientSecret} + X-SSL-Client-Cert
 *     one statement: SELECT account_id, secret_hash, cert_sha256 FROM credentials WHERE client_id = $1
 *     secret: HMAC-SHA256 with a server key, compared in constant time (a generated secret);
 *     certificate: SHA-256 of the presented PEM compared with the registered one (no X.509 parsing);
 *     an ES256 JWT (jose) with the service's claims (cnf.x5t#S256, 30 min) -> 201.
 *
 * Identities get a random PEM-like certificate of the requested length, so requests weigh the same.
 */
import { createHash, createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import Fastify from 'fastify';
import { generateKeyPair, SignJWT } from 'jose';
import type { Engine } from '../lib/env.ts';
import type { TokenIdentity } from '../lib/requests.ts';
import { openReferenceDb } from './db.ts';
import { listen } from './listen.ts';

const LIFETIME_S = 1800;

export async function startTokenReference(engine: Engine, options: { databaseUrl?: string; port?: number } = {}) {
  const db = await openReferenceDb(engine, options.databaseUrl ? { databaseUrl: options.databaseUrl } : {});
  const table = `${db.schema}.credentials`;
  await db.setup(`CREATE TABLE ${table} (client_id uuid PRIMARY KEY, account_id integer NOT NULL, secret_hash bytea NOT NULL, cert_sha256 bytea NOT NULL)`);
  const hmacKey = randomBytes(32);
  const { privateKey } = await generateKeyPair('ES256');
  const kid = randomUUID();
  const secretHash = (secret: string) => createHmac('sha256', hmacKey).update(secret, 'utf8').digest();
  const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest();
  const app = Fastify({ logger: false });

  app.post<{ Body: { clientId: string; clientSecret: string } }>('/api/auth/token', async (request, reply) => {
    const { clientId, clientSecret } = request.body;
    const cert = request.headers['x-ssl-client-cert'];
    if (typeof cert !== 'string' || typeof clientId !== 'string' || typeof clientSecret !== 'string') return reply.code(400).send({ error: 'bad request' });
    const { rows } = await db.query<{ account_id: number; secret_hash: Uint8Array; cert_sha256: Uint8Array }>(
      `SELECT account_id, secret_hash, cert_sha256 FROM ${table} WHERE client_id = $1`,
      [clientId],
    );
    const row = rows[0];
    const thumbprint = sha256(decodeURIComponent(cert));
    if (!row || !timingSafeEqual(Buffer.from(row.secret_hash), secretHash(clientSecret)) || !timingSafeEqual(Buffer.from(row.cert_sha256), thumbprint)) {
      return reply.code(401).send({ error: 'invalid_client' });
    }
    const now = Math.floor(Date.now() / 1000);
    const token = await new SignJWT({ client_id: clientId, account_id: row.account_id, scope: 'pix:write balance:read', cnf: { 'x5t#S256': thumbprint.toString('base64url') } })
      .setProtectedHeader({ alg: 'ES256', kid, typ: 'at+jwt' })
      .setIssuer('http://bench-reference')
      .setAudience('bench')
      .setSubject(String(row.account_id))
      .setJti(randomUUID())
      .setIssuedAt(now)
      .setNotBefore(now)
      .setExpirationTime(now + LIFETIME_S)
      .sign(privateKey);
    return reply.code(201).send({ access_token: token, token_type: 'Bearer', expires_in: LIFETIME_S });
  });

  /** n identities, each with a generated secret and a PEM-like certificate of `certLength` characters (percent-encoded). */
  async function makeIdentities(n: number, certLength: number): Promise<TokenIdentity[]> {
      const out: TokenIdentity[] = [];
      const values: string[] = [];
      for (let i = 0; i < n; i++) {
        const pem = fakePem(certLength);
        const id = { clientId: randomUUID(), clientSecret: randomBytes(24).toString('base64url'), cert: encodeURIComponent(pem) };
        values.push(`('${id.clientId}', ${i + 1}, '\\x${secretHash(id.clientSecret).toString('hex')}', '\\x${sha256(pem).toString('hex')}')`);
        out.push(id);
      }
      await db.setup(`INSERT INTO ${table} VALUES ${values.join(', ')}`);
      return out;
  }
  // A reference in a process of its own (token-main.ts) makes its identities when the benchmark asks.
  app.post<{ Body: { n: number; certLength: number } }>('/bench/identities', async (request) => makeIdentities(request.body.n, request.body.certLength));

  const listening = await listen(app, db, options.port ?? 0);
  return { ...listening, makeIdentities };
}

/** A PEM-shaped text of about `length` characters once percent-encoded (as the header carries it). */
function fakePem(length: number): string {
  const make = (bytes: number) => {
    const body = randomBytes(Math.max(16, Math.round(bytes))).toString('base64');
    const lines = body.match(/.{1,64}/g) ?? [];
    return `-----BEGIN CERTIFICATE-----\n${lines.join('\n')}\n-----END CERTIFICATE-----\n`;
  };
  let bytes = length / 2;
  let pem = make(bytes);
  for (let i = 0; i < 8; i++) {
    const encoded = encodeURIComponent(pem).length;
    if (Math.abs(encoded - length) <= length * 0.01) break;
    bytes *= length / encoded;
    pem = make(bytes);
  }
  return pem;
}
