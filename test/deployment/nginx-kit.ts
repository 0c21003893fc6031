import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { parse } from 'yaml';

/**
 * Debian's nginx serving the project's template (deploy/nginx/pix-account-service.conf.template)
 * in front of instances, for the suites that test the deployment through it.
 */
export const NGINX = ['/usr/sbin/nginx', 'nginx'].find((bin) => spawnSync(bin, ['-v']).status === 0);

/**
 * UPSTREAM_SERVERS for these addresses, with the per-server parameters of the reference deployment
 * (deploy/compose.yaml), in the template's line format.
 */
export function upstreamServers(addresses: string[]) {
  const compose = parse(readFileSync('deploy/compose.yaml', 'utf8'), { merge: true });
  const line = /^server [^\s;]+( [^;]*)?;/.exec(compose.services.nginx.environment.UPSTREAM_SERVERS);
  if (!line) throw new Error('deploy/compose.yaml: UPSTREAM_SERVERS is not "server host:port ...;" lines');
  return addresses.map((address) => `server ${address}${line[1] ?? ''};`).join(' ');
}

/** deploy/nginx's template filled as envsubst would. */
export function fillTemplate(values: Record<string, string>) {
  const template = readFileSync('deploy/nginx/pix-account-service.conf.template', 'utf8');
  return template.replace(/\$\{([A-Z_]+)\}/g, (_all, name: string) => {
    if (!(name in values)) throw new Error(`no value for \${${name}}`);
    return values[name]!;
  });
}

export async function waitForPort(port: number, timeoutMs = 15_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => (socket.end(), resolve(true)));
      socket.on('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > until) throw new Error(`nothing listens on ${port}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** nginx (foreground, in `dir`) serving the filled template; throws what `nginx -t` refused. */
export async function startNginx(dir: string, values: Record<string, string>): Promise<ChildProcess> {
  for (const temp of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(path.join(dir, temp), { recursive: true });
  writeFileSync(path.join(dir, 'pix.conf'), fillTemplate(values));
  writeFileSync(
    path.join(dir, 'nginx.conf'),
    [
      process.getuid?.() === 0 ? 'user root;' : '',
      'worker_processes 1;',
      `pid ${dir}/nginx.pid;`,
      `error_log ${dir}/error.log warn;`,
      'events { worker_connections 256; }',
      'http {',
      '  access_log off;',
      ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `  ${t}_temp_path ${dir}/${t === 'client_body' ? 'body' : t};`),
      `  include ${dir}/pix.conf;`,
      '}',
    ].join('\n'),
  );
  const check = spawnSync(NGINX!, ['-t', '-p', dir, '-c', path.join(dir, 'nginx.conf')], { encoding: 'utf8' });
  if (check.status !== 0) throw new Error(`nginx -t refused the configuration:\n${check.stderr}`);
  return spawn(NGINX!, ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-g', 'daemon off;'], { stdio: 'ignore' });
}
