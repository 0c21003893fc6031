import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startHarness } from '../harness.ts';
import { providerEnv } from '../provider-env.ts';

// Issue 10 item 11: /metrics is not public in production.

const METRICS_TOKEN = 'mtr_Hq3vX9kLp2Rz7TnWb4Yc8Fd1Gs6Jm0Ae5Ku';

async function scrape(env: Record<string, string>, attempts: Array<string | undefined>) {
  const h = await startHarness({ env });
  try {
    const answers = [];
    for (const token of attempts) {
      answers.push(await h.app.inject({ method: 'GET', url: '/metrics', headers: token ? { authorization: `Bearer ${token}` } : {} }));
    }
    return answers;
  } finally {
    await h.close();
  }
}

// One service instance per case (each its own configuration): generous timeouts for a loaded machine.
describe('/metrics', { timeout: 120_000 }, () => {
  it('production with METRICS_TOKEN: 401 without it, with a wrong one or the admin token; 200 with Prometheus text when right', async () => {
    const [none, wrong, admin, right] = await scrape({ MODE: 'production', ...providerEnv(), METRICS_TOKEN }, [undefined, 'not-the-token', ADMIN_TOKEN, METRICS_TOKEN]);
    for (const res of [none, wrong, admin]) {
      expect(res!.statusCode).toBe(401);
      expect(res!.json()).toEqual({ statusCode: 401, error: 'Unauthorized', message: 'Send Authorization: Bearer <METRICS_TOKEN>' });
      expect(res!.body).not.toMatch(/http_requests/);
    }
    expect(right!.statusCode).toBe(200);
    expect(right!.headers['content-type']).toMatch(/^text\/plain/);
    expect(right!.body).toMatch(/# TYPE \S+ (counter|histogram|gauge)/);
  });

  it('production without METRICS_TOKEN: switched off (404), whoever asks', async () => {
    const [none, admin] = await scrape({ MODE: 'production', ...providerEnv() }, [undefined, ADMIN_TOKEN]);
    expect(none!.statusCode).toBe(404);
    expect(admin!.statusCode).toBe(404);
    expect(none!.json()).toEqual({ statusCode: 404, message: 'Metrics are switched off in production: set METRICS_TOKEN to read them with it', error: 'Not Found' });
  });

  it('sandbox: public by default', async () => {
    const [open] = await scrape({}, [undefined]);
    expect(open!.statusCode).toBe(200);
    expect(open!.body).toMatch(/# TYPE /);
  });

  it('sandbox: protected as in production once METRICS_TOKEN is set', async () => {
    const [none, right] = await scrape({ METRICS_TOKEN }, [undefined, METRICS_TOKEN]);
    expect(none!.statusCode).toBe(401);
    expect(right!.statusCode).toBe(200);
    expect(right!.body).toMatch(/# TYPE /);
  });
});
