import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Config } from '../../config.ts';
import type { Clock } from '../../domain/clock.ts';
import type { AccountService } from '../accounts/account.service.ts';
import type { CertificateService } from '../auth/certificate.service.ts';
import type { CredentialService } from '../auth/credential.service.ts';
import type { PortalPeopleService } from '../portal/portal-people.service.ts';
import { toBrlNumber, type Cents } from '../../domain/money.ts';
import { parseCertificate } from '../auth/x509.ts';
import { adminTokenFile } from './admin-token.ts';

const DEMO_FUNDING = 1_000_000 as Cents; // R$ 10,000.00
const DEMO_DOCUMENT = '11144477735';

/** The demo account's portal member (issue 14); its password is kept in the demo folder and printed. */
export const DEMO_MEMBER_EMAIL = 'demo@example.com';

export interface DemoAccount {
  accountId: number;
  /** What it holds now (it was funded once; what was spent or received since shows). */
  balance: { available: Cents; blocked: Cents };
  portalPassword: string;
  pixKey: string;
  clientId: string;
  clientSecret: string;
  certPath: string;
  keyPath: string;
}

let memoryFolder: string | undefined;

/**
 * `${DATA_DIR}/demo`; with `DATA_DIR=memory://`, which keeps nothing, a private temporary folder
 * (mode 0700) of this process, removed when it exits: nothing is written in the working directory, and
 * the printed paths still work for the curl command.
 */
function demoFolder(config: Config): string {
  if (config.dataDir !== 'memory://') return path.resolve(config.dataDir, 'demo');
  if (!memoryFolder) {
    const folder = mkdtempSync(path.join(tmpdir(), 'pix-demo-'));
    memoryFolder = folder;
    process.once('exit', () => rmSync(folder, { recursive: true, force: true }));
  }
  return memoryFolder;
}

/**
 * Makes sure the sandbox has its demo account: created and funded once, with a certificate whose
 * files are in the demo folder and credentials whose secret is kept there too (the database keeps
 * only its hash), so every start can print a working set.
 */
export async function ensureDemoAccount(c: {
  config: Config;
  clock: Clock;
  accounts: Pick<AccountService, 'demo' | 'create' | 'get'>;
  /** The simulator, which funds the demo account with a PIX (sandbox mode). */
  sandboxNetwork: { sendPix(accountId: number, amount: Cents): Promise<unknown> } | undefined;
  certificates: Pick<CertificateService, 'make' | 'isActive'>;
  credentials: Pick<CredentialService, 'create' | 'isActive'>;
  portalPeople: Pick<PortalPeopleService, 'ensureDemoMember'>;
}): Promise<DemoAccount> {
  const folder = demoFolder(c.config);
  mkdirSync(folder, { recursive: true });
  const certPath = path.join(folder, 'client-cert.pem');
  const keyPath = path.join(folder, 'client-key.pem');
  const credentialsPath = path.join(folder, 'credentials.json');

  let account = await c.accounts.demo();
  if (!account) {
    try {
      account = await c.accounts.create({ name: 'Conta Demo', document: DEMO_DOCUMENT, type: 'INDIVIDUAL', isDemo: true });
      // Funded as the decisions say: a simulated incoming PIX.
      await c.sandboxNetwork!.sendPix(account.id, DEMO_FUNDING);
    } catch (error) {
      // Several instances starting together on one database: another one created it first (the
      // unique index on is_demo), and funds it.
      account = (error as { code?: string }).code === '23505' ? await c.accounts.demo() : undefined;
      if (!account) throw error;
    }
  }

  const now = c.clock.now();
  const existing = existsSync(certPath) && existsSync(keyPath) ? parseCertificate(readFileSync(certPath, 'utf8')) : undefined;
  const usable =
    existing &&
    existing.notAfter > now &&
    (await c.certificates.isActive(existing.fingerprint, account.id));
  if (!usable) {
    const made = await c.certificates.make(account.id);
    writeFileSync(certPath, made.certificatePem);
    writeFileSync(keyPath, made.privateKeyPem, { mode: 0o600 });
  }

  let saved: { accountId: number; clientId: string; clientSecret: string } | undefined;
  try {
    saved = JSON.parse(readFileSync(credentialsPath, 'utf8'));
  } catch {
    saved = undefined;
  }
  const stillValid =
    saved?.accountId === account.id &&
    (await c.credentials.isActive(saved.clientId, account.id));
  if (!saved || !stillValid) {
    const created = await c.credentials.create(account.id, {});
    saved = { accountId: account.id, clientId: created.clientId, clientSecret: created.clientSecret };
    mkdirSync(path.dirname(credentialsPath), { recursive: true });
    writeFileSync(credentialsPath, JSON.stringify(saved, null, 2), { mode: 0o600 });
  }
  // The portal password is kept beside the credentials, so every start prints the same one.
  const portalPasswordPath = path.join(path.dirname(credentialsPath), 'portal-password');
  let portalPassword = existsSync(portalPasswordPath) ? readFileSync(portalPasswordPath, 'utf8').trim() : '';
  if (portalPassword.length < 12) {
    portalPassword = randomBytes(12).toString('base64url');
    writeFileSync(portalPasswordPath, portalPassword, { mode: 0o600 });
  }
  await c.portalPeople.ensureDemoMember(account.id, DEMO_MEMBER_EMAIL, portalPassword);
  const current = await c.accounts.get(account.id);
  return { accountId: account.id, balance: { available: current.available, blocked: current.blocked }, portalPassword, pixKey: account.pix_key, clientId: saved.clientId, clientSecret: saved.clientSecret, certPath, keyPath };
}

const reais = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const brl = (amount: Cents) => `R$ ${reais.format(toBrlNumber(amount))}`;

/** What the start-up banner says about the admin token: where it is kept, or why it is not. */
function adminTokenNote(config: Config): string {
  if (!config.adminTokenGenerated) return '';
  const file = adminTokenFile(config);
  return file ? `   (generated once, kept in ${file}; set ADMIN_TOKEN to choose one)` : '   (generated for this run: DATA_DIR=memory:// keeps nothing; set ADMIN_TOKEN to choose one)';
}

/** The sandbox's start-up banner: where the API is (PUBLIC_URL), the admin token, the demo account and a ready curl. */
export function demoBanner(demo: DemoAccount, config: Config): string {
  const base = config.publicUrl;
  // Over our own TLS the certificate is proven on the handshake (-k: the server's may be self-signed).
  const presentCert = config.tls
    ? `    -k --cert '${demo.certPath}' --key '${demo.keyPath}' \\`
    : `    -H "X-SSL-Client-Cert: $(node -e 'process.stdout.write(encodeURIComponent(require("fs").readFileSync(process.argv[1],"utf8")))' '${demo.certPath}')" \\`;
  const blocked = demo.balance.blocked > 0 ? ` (${brl(demo.balance.blocked)} blocked)` : '';
  const lines = [
    '',
    '  pix-account-service is running in SANDBOX mode',
    `  API:          ${base}   (docs: ${base}/docs)`,
    `  Admin token:  ${config.adminToken}${adminTokenNote(config)}`,
    '',
    `  Demo account: id ${demo.accountId}, PIX key ${demo.pixKey}, balance ${brl(demo.balance.available)} available${blocked}`,
    `  clientId:     ${demo.clientId}`,
    `  clientSecret: ${demo.clientSecret}`,
    `  certificate:  ${demo.certPath}`,
    `  private key:  ${demo.keyPath}`,
    '',
    `  Portal:       ${base}/portal   sign in as ${DEMO_MEMBER_EMAIL} / ${demo.portalPassword}`,
    '',
    '  Get an access token:',
    `  curl -s -X POST ${base}/api/auth/token \\`,
    `    -H 'Content-Type: application/json' \\`,
    presentCert,
    `    -d '{"clientId":"${demo.clientId}","clientSecret":"${demo.clientSecret}"}'`,
    '',
    `  Then: curl -s${config.tls ? ' -k' : ''} ${base}/api/balance -H 'Authorization: Bearer <access_token>'`,
    '',
  ];
  return lines.join('\n') + '\n';
}

export function printDemo(demo: DemoAccount, config: Config) {
  process.stdout.write(demoBanner(demo, config));
}
