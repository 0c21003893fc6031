import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { createContainer } from './container.ts';
import { DataDirLockedError } from './db/database.ts';
import { reloadCertificatesOnSighup } from './http/tls.ts';
import { ensureDemoAccount, printDemo } from './services/sandbox/demo-account.ts';

async function main() {
  const config = loadConfig();
  const c = await createContainer(config);
  const app = await buildApp(c);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    c.logger.info({ signal }, 'shutting down');
    const timer = setTimeout(() => process.exit(1), 10_000).unref();
    try {
      await app.close();
      await c.close();
    } finally {
      clearTimeout(timer);
      process.exit(0);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  reloadCertificatesOnSighup(app.server, config.tls, c.logger);

  await app.listen({ port: config.port, host: config.host });
  c.start();
  if (config.mode === 'sandbox') printDemo(await ensureDemoAccount(c), config);
}

main().catch((error) => {
  if (error instanceof ConfigError || error instanceof DataDirLockedError) {
    console.error(error.message);
  } else {
    console.error(error);
  }
  process.exit(1);
});
