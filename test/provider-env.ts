import { fileURLToPath } from 'node:url';

/**
 * Production mode needs a PIX network (issue 13: it refuses to start without one). Suites that run
 * production for other reasons (proxies, metrics, webhook rules) configure the provider adapter
 * with a test certificate and a provider on a closed loopback port: nothing reaches it, so any
 * payment to another bank simply waits (PENDING) and charges answer PROVIDER_UNAVAILABLE.
 */
export const TEST_PROVIDER_CERT_FILE = fileURLToPath(new URL('./fixtures/provider-client-cert.pem', import.meta.url));
export const TEST_PROVIDER_KEY_FILE = fileURLToPath(new URL('./fixtures/provider-client-key.pem', import.meta.url));
/** A Standard Webhooks secret for tests ("whsec_" + base64 of 24 bytes). */
export const TEST_PROVIDER_WEBHOOK_SECRET = 'whsec_cHJvdmlkZXItbm90aWNlcy10ZXN0LWtleS0x';

export function providerEnv(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    PIX_NETWORK: 'provider',
    PROVIDER_URL: 'http://127.0.0.1:1',
    PROVIDER_CLIENT_ID: '6f1c2b9e-4d3a-4b8f-9a7e-2c5d8e1f0a3b',
    PROVIDER_CLIENT_SECRET: 'provider-test-secret',
    PROVIDER_CERT_FILE: TEST_PROVIDER_CERT_FILE,
    PROVIDER_KEY_FILE: TEST_PROVIDER_KEY_FILE,
    PROVIDER_WEBHOOK_SECRET: TEST_PROVIDER_WEBHOOK_SECRET,
    PUBLIC_URL: 'https://pix.example.test',
    ...overrides,
  };
}
