import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Clock } from '../../domain/clock.ts';
import type { DB } from '../../db/schema.ts';
import type { Scheduler } from '../../jobs/scheduler.ts';
import { errorCodeOf, errorMessageOf, ProviderAuthRefused, type ProviderApi } from './provider-api.ts';
import { writeState } from './provider-state.ts';
import { PROVIDER_EVENT_TYPES, type ProviderErrorBody, type WebhookSetupAnswer } from './types.ts';

export const WEBHOOK_REGISTRATION = 'provider.register_webhooks';

export type RegistrationOutcome =
  | { state: 'registered'; url: string; events: string[] }
  | { state: 'refused'; url: string; message: string };

/**
 * On start, our notice URL is registered at the provider for every event (`POST /api/webhooks`,
 * which updates an already registered URL). A provider that keeps the route disabled answers
 * `success: false`: that is said clearly (a warn log line and GET /admin/network/status) with what
 * to register by hand in its dashboard. The provider's trouble retries the step with backoff.
 */
export function registerWebhookRegistration(deps: { db: Kysely<DB>; clock: Clock; scheduler: Scheduler; api: ProviderApi; url: string; logger: Logger }) {
  async function register(): Promise<RegistrationOutcome> {
    const events: string[] = [];
    for (const eventType of PROVIDER_EVENT_TYPES) {
      let answer;
      try {
        answer = await deps.api.call('POST', '/api/webhooks', { url: deps.url, eventType });
      } catch (error) {
        // Our credentials refused: retrying will not help until an operator fixes them; say so.
        if (error instanceof ProviderAuthRefused) return { state: 'refused', url: deps.url, message: error.message };
        throw error;
      }
      const body = answer.body as Partial<WebhookSetupAnswer> & ProviderErrorBody;
      if (answer.status >= 200 && answer.status < 300 && body.success === true) {
        events.push(eventType);
        continue;
      }
      const message =
        answer.status >= 200 && answer.status < 300
          ? `the provider does not allow registering webhooks through its API (${String(body.message ?? 'success: false')})`
          : `the provider refused the registration of ${eventType}: ${errorCodeOf(body) ?? `HTTP ${answer.status}`} ${errorMessageOf(body, '')}`.trim();
      return { state: 'refused', url: deps.url, message };
    }
    return { state: 'registered', url: deps.url, events };
  }

  deps.scheduler.registerStep<Record<string, never>, RegistrationOutcome>(WEBHOOK_REGISTRATION, {
    maxAttempts: 1000,
    async call(jobs) {
      const outcome = await register();
      const at = deps.clock.now();
      await writeState(deps.db, 'webhook_registration', { ...outcome, at: at.toISOString() }, at);
      if (outcome.state === 'registered') deps.logger.info({ url: outcome.url, events: outcome.events }, 'provider webhooks registered');
      else {
        deps.logger.warn(
          { url: outcome.url, reason: outcome.message, events: PROVIDER_EVENT_TYPES },
          `the provider's webhooks are NOT registered: register ${outcome.url} for every event (${PROVIDER_EVENT_TYPES.join(', ')}) in the provider's dashboard, with the signing secret given as PROVIDER_WEBHOOK_SECRET; until then payments finish only through reconciliation`,
        );
      }
      return jobs.map(() => outcome);
    },
    async record() {},
  });

  return {
    /** Registration at start (a job already waiting is enough). */
    async ensureScheduled(): Promise<void> {
      const pending = await deps.db.selectFrom('jobs').select('id').where('kind', '=', WEBHOOK_REGISTRATION).where('status', '=', 'pending').executeTakeFirst();
      if (!pending) await deps.scheduler.schedule(deps.db, WEBHOOK_REGISTRATION, deps.clock.now(), {});
    },
  };
}
