import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

/**
 * deploy/prometheus/alerts.yml, checked and unit-tested by Prometheus's own promtool (Debian's
 * `prometheus` package). Without promtool the suite says so and skips, unless PROMTOOL_REQUIRED is
 * set (.ci/run installs the package and sets it): then a missing promtool fails.
 */
const PROMTOOL = process.env.PROMTOOL ?? 'promtool';
const available = spawnSync(PROMTOOL, ['--version'], { encoding: 'utf8' }).status === 0;
if (!available && process.env.PROMTOOL_REQUIRED) {
  throw new Error(`PROMTOOL_REQUIRED is set but ${PROMTOOL} cannot be run (apt-get install prometheus)`);
}
if (!available) console.warn(`SKIPPED: no ${PROMTOOL} here (Debian's prometheus package): deploy/prometheus/alerts.yml was not checked`);

const RULES = 'deploy/prometheus/alerts.yml';
const promtool = (...args: string[]) => execFileSync(PROMTOOL, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

describe.skipIf(!available)('Prometheus alert rules (promtool)', () => {
  it('promtool check rules: valid', () => {
    expect(promtool('check', 'rules', RULES)).toMatch(/SUCCESS: \d+ rules found/);
  });

  it('promtool test rules: each alert fires on what should raise it, and not before', () => {
    expect(promtool('test', 'rules', 'deploy/prometheus/alerts.test.yml')).toMatch(/SUCCESS/);
  });

  it('promtool check config: the Prometheus example (deploy/prometheus/prometheus.yml) is valid', () => {
    // --syntax-only: the token file exists only inside the compose deployment (/run/secrets).
    expect(promtool('check', 'config', '--syntax-only', 'deploy/prometheus/prometheus.yml')).toMatch(/SUCCESS/);
  });
});

describe('the Prometheus example scrapes with METRICS_TOKEN (issue 31)', () => {
  it('compose sets METRICS_TOKEN on every instance and hands the same variable to Prometheus as its bearer token file', () => {
    const compose = parse(readFileSync('deploy/compose.yaml', 'utf8'), { merge: true }) as any;
    for (const app of ['app1', 'app2']) expect(compose.services[app].environment.METRICS_TOKEN).toMatch(/^\$\{METRICS_TOKEN:\?/);
    expect(compose.secrets.metrics_token).toEqual({ environment: 'METRICS_TOKEN' });
    expect(compose.services.prometheus.secrets).toEqual(['metrics_token']);
    const config = parse(readFileSync('deploy/prometheus/prometheus.yml', 'utf8')) as any;
    const job = config.scrape_configs.find((j: { job_name: string }) => j.job_name === 'pix-account-service');
    expect(job.authorization).toEqual({ type: 'Bearer', credentials_file: '/run/secrets/metrics_token' });
    expect(job.static_configs[0].targets).toEqual(['app1:3000', 'app2:3000']);
    expect(config.rule_files).toEqual(['alerts.yml']);
  });
});

describe('the alert rules cover the backlog gauges /metrics exposes', () => {
  it('names jobs_waiting, webhook_deliveries_failing, payouts_pending, payouts_oldest_pending_seconds and build_info, each tested', () => {
    const rules = (parse(readFileSync(RULES, 'utf8')) as { groups: Array<{ rules: Array<{ alert: string; expr: string }> }> }).groups.flatMap((g) => g.rules);
    const tests = readFileSync('deploy/prometheus/alerts.test.yml', 'utf8');
    for (const metric of ['jobs_waiting', 'webhook_deliveries_failing', 'payouts_pending', 'payouts_oldest_pending_seconds', 'build_info', 'metrics_backlog_errors_total', 'provider_circuit_open', 'provider_call_duration_seconds_bucket', 'provider_statement_mismatches', 'suspense_items']) {
      const rule = rules.find((r) => new RegExp(`\\b${metric}\\{`).test(r.expr));
      expect(rule, metric).toBeDefined();
      // Every alert has a case where it fires.
      expect(tests).toMatch(new RegExp(`alertname: ${rule!.alert}\\n\\s+exp_alerts:\\n\\s+- exp_labels`));
    }
  });
});
