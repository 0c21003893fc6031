import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';

/** A saved connection: what `pix login` stores (file paths for the certificate and key, never their contents). */
export interface Profile {
  baseUrl?: string;
  clientId?: string;
  clientSecret?: string;
  certFile?: string;
  keyFile?: string;
  adminToken?: string;
  /** The `whsec_` secret `pix listen` signs forwarded events with, kept across restarts. */
  listenSecret?: string;
}

export interface ConfigFile {
  profiles: Record<string, Profile>;
}

/** `$XDG_CONFIG_HOME/pix`, else `~/.config/pix` (decisions 8). */
export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : path.join(homedir(), '.config');
  return path.join(base, 'pix');
}

export const configPath = (env: NodeJS.ProcessEnv = process.env) => path.join(configDir(env), 'config.json');

export function readConfig(env: NodeJS.ProcessEnv = process.env): ConfigFile {
  const file = configPath(env);
  if (!existsSync(file)) return { profiles: {} };
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<ConfigFile>;
  return { profiles: parsed.profiles ?? {} };
}

/**
 * Writes the whole file readable by its owner only (0600, in a 0700 folder): it holds client secrets
 * and the admin token. Written beside and renamed, so a crash never leaves half a file.
 */
export function writeConfig(config: ConfigFile, env: NodeJS.ProcessEnv = process.env): string {
  const dir = configDir(env);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = configPath(env);
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  chmodSync(temporary, 0o600);
  renameSync(temporary, file);
  return file;
}

/** Changes one profile (creating it), keeping the others and the profile's other fields. */
export function updateProfile(name: string, change: Partial<Profile>, env: NodeJS.ProcessEnv = process.env): string {
  const config = readConfig(env);
  config.profiles[name] = { ...config.profiles[name], ...change };
  return writeConfig(config, env);
}
