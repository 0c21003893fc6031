import { readFileSync } from 'node:fs';
import { createPixAdminClient, type PixAdminClient } from '../admin.ts';
import { createPixClient, type PixClient } from '../client.ts';
import { CONNECTION_OPTIONS, stringOf, UsageError, type Parsed } from './args.ts';
import { readConfig, type Profile } from './config.ts';

export const DEFAULT_BASE_URL = 'http://127.0.0.1:3000';

/** Where a command connects: each value from its option, else its environment variable, else the profile. */
export interface Connection {
  profileName: string;
  profile: Profile;
  baseUrl: string;
  clientId?: string | undefined;
  clientSecret?: string | undefined;
  certFile?: string | undefined;
  keyFile?: string | undefined;
  adminToken?: string | undefined;
}

/** `creating`: the profile may not exist yet (login saves it). */
export function connectionOf(values: Parsed['values'], env: NodeJS.ProcessEnv = process.env, creating = false): Connection {
  const pick = (name: keyof typeof CONNECTION_OPTIONS) => stringOf(values[name]) ?? (env[CONNECTION_OPTIONS[name].env] || undefined);
  const profileName = pick('profile') ?? 'default';
  const config = readConfig(env);
  const profile = config.profiles[profileName];
  if (!profile && !creating && pick('profile') !== undefined) throw new UsageError(`No profile "${profileName}": save one with pix login --profile ${profileName}`);
  const saved = profile ?? {};
  return {
    profileName,
    profile: saved,
    baseUrl: (pick('base-url') ?? saved.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, ''),
    clientId: pick('client-id') ?? saved.clientId,
    clientSecret: pick('client-secret') ?? saved.clientSecret,
    certFile: pick('cert') ?? saved.certFile,
    keyFile: pick('key') ?? saved.keyFile,
    adminToken: pick('admin-token') ?? saved.adminToken,
  };
}

function readPem(file: string, what: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`Cannot read the ${what} ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

/** The account client of the connection; a UsageError names what is missing. */
export function accountClient(connection: Connection): PixClient {
  const missing = [
    ...(connection.clientId ? [] : ['--client-id (PIX_CLIENT_ID)']),
    ...(connection.clientSecret ? [] : ['--client-secret (PIX_CLIENT_SECRET)']),
    ...(connection.certFile ? [] : ['--cert (PIX_CERT_FILE)']),
  ];
  if (missing.length) throw new UsageError(`This command acts as an account: give ${missing.join(', ')}, or save them with pix login`);
  const cert = readPem(connection.certFile!, 'certificate');
  const key = connection.keyFile ? readPem(connection.keyFile, 'key') : undefined;
  // mTLS needs https; over http (the sandbox) the certificate travels in X-SSL-Client-Cert.
  const tls = Boolean(key) && connection.baseUrl.startsWith('https:');
  return createPixClient({
    baseUrl: connection.baseUrl,
    clientId: connection.clientId!,
    clientSecret: connection.clientSecret!,
    certificate: { cert, ...(key ? { key } : {}) },
    certificateTransport: tls ? 'tls' : 'header',
  });
}

export function adminClient(connection: Connection): PixAdminClient {
  if (!connection.adminToken) throw new UsageError('This command needs the operator token: give --admin-token (PIX_ADMIN_TOKEN), or save it with pix login');
  return createPixAdminClient({ baseUrl: connection.baseUrl, adminToken: connection.adminToken });
}
