import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { createContainer } from '../src/container.ts';

/**
 * The OpenAPI document the service serves at /openapi.json, with the default configuration (sandbox
 * mode, so the sandbox routes are in it) on an in-memory database.
 */
export async function exportDocument(): Promise<Record<string, unknown>> {
  const config = loadConfig({ MODE: 'sandbox', DATA_DIR: 'memory://', ADMIN_TOKEN: 'export-openapi-admin-token', LOG_LEVEL: 'silent' });
  const c = await createContainer(config);
  const app = await buildApp(c);
  await app.ready();
  try {
    return app.swagger() as unknown as Record<string, unknown>;
  } finally {
    await app.close();
    await c.close();
  }
}
