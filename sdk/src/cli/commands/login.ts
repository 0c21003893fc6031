import path from 'node:path';
import { UsageError } from '../args.ts';
import type { Command } from '../command.ts';
import { configPath, updateProfile, type Profile } from '../config.ts';
import { accountClient, adminClient } from '../connection.ts';

export const loginCommand: Command = {
  name: 'login',
  spec: {
    usage: 'login [--profile NAME] [--base-url URL] [--client-id ID --client-secret SECRET --cert FILE [--key FILE]] [--admin-token TOKEN]',
    summary:
      'Saves the connection options as a profile, once the service accepts them. ' +
      'The account is checked by getting a token, the operator token by a call; the profile goes in $XDG_CONFIG_HOME/pix/config.json ' +
      '(else ~/.config/pix/config.json), readable only by you. Later commands use the profile ' +
      '(--profile NAME, else "default"); an option or environment variable still wins over it.',
  },
  async run({ connection, out }) {
    const c = connection(true);
    if (!c.clientId && !c.adminToken) throw new UsageError('Give the account (--client-id, --client-secret, --cert) or the operator token (--admin-token) to log in with');
    const checked: string[] = [];
    if (c.clientId || c.clientSecret || c.certFile) {
      await accountClient(c).accessToken();
      checked.push(`account ${c.clientId}`);
    }
    if (c.adminToken) {
      await adminClient(c).accounts.list({ pageSize: 1 });
      checked.push('operator token');
    }
    const profile: Profile = {
      baseUrl: c.baseUrl,
      ...(c.clientId ? { clientId: c.clientId } : {}),
      ...(c.clientSecret ? { clientSecret: c.clientSecret } : {}),
      // Paths are kept absolute: the profile works from any directory.
      ...(c.certFile ? { certFile: path.resolve(c.certFile) } : {}),
      ...(c.keyFile ? { keyFile: path.resolve(c.keyFile) } : {}),
      ...(c.adminToken ? { adminToken: c.adminToken } : {}),
    };
    const file = updateProfile(c.profileName, profile);
    out.result(
      { profile: c.profileName, baseUrl: c.baseUrl, configFile: file, checked },
      `Logged in to ${c.baseUrl} (${checked.join(' and ')}): profile "${c.profileName}" saved in ${configPath()}`,
    );
  },
};
