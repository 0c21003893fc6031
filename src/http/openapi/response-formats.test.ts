import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../test/harness.ts';

/**
 * The response check (response-check.ts) can refuse a malformed amount or id only where the answer's
 * schema names its format: every numeric amount an answer documents is `money`, every numeric
 * compatible-family `valor`/`original` string amount is `decimal-amount`, and the ids the service
 * makes as UUIDs are `uuid` (v4, from `uuid-v4`).
 */
const WEBHOOK_PAYLOADS = new Set(['TransactionEvent', 'ReceiveEvent', 'RefundEvent', 'TransferEvent', 'MedEvent']);
/**
 * The one known gap: a MED's `transaction.amount` (src/services/med/med-view.ts, being reworked on
 * another branch) is declared as a bare number. Listed so that the check fails once it is fixed there
 * (and this entry must go).
 */
const KNOWN_UNFORMATTED = ['POST /sandbox/med 201/content/application/json/schema/properties/transaction/anyOf[0].amount', 'POST /sandbox/med/{id}/transition 200/content/application/json/schema/properties/transaction/anyOf[0].amount', 'components/Med/properties/transaction/anyOf[0].amount'];

describe('answers declare the formats of their amounts and ids', () => {
  let h: Harness;
  let document: { paths: Record<string, Record<string, { responses?: Record<string, unknown> }>>; components: { schemas: Record<string, unknown> } };
  beforeAll(async () => {
    h = await startHarness();
    document = (await h.app.inject({ method: 'GET', url: '/openapi.json' })).json();
  });
  afterAll(() => h.close());

  /** Every property of every success answer: where it is, its name, its schema. */
  function properties() {
    const found: Array<{ where: string; name: string; schema: Record<string, unknown> }> = [];
    const walk = (node: unknown, where: string) => {
      if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${where}[${i}]`));
      if (!node || typeof node !== 'object') return;
      const o = node as Record<string, unknown>;
      if (o.properties && typeof o.properties === 'object') {
        for (const [name, schema] of Object.entries(o.properties as Record<string, Record<string, unknown>>)) found.push({ where: `${where}.${name}`, name, schema });
      }
      for (const [key, value] of Object.entries(o)) if (key !== 'examples' && key !== 'example') walk(value, `${where}/${key}`);
    };
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        for (const [status, response] of Object.entries(operation.responses ?? {})) if (status.startsWith('2')) walk(response, `${method.toUpperCase()} ${path} ${status}`);
      }
    }
    // Shared answers referenced from the paths (Devolucao, Med, ...); the webhook payloads are the
    // webhooks' contract, checked on every delivery (checkWebhookDelivery).
    for (const [name, schema] of Object.entries(document.components.schemas)) if (!WEBHOOK_PAYLOADS.has(name)) walk(schema, `components/${name}`);
    return found;
  }

  it('BRL amounts as numbers are `money`', () => {
    const amounts = properties().filter(({ name, schema }) => schema.type === 'number' && /amount|balance|^(available|blocked|overdraft|fixed|perTransaction|daily|nightly|refundValue|postedAvailable|postedBlocked)$/i.test(name));
    expect(amounts.length).toBeGreaterThan(20);
    expect(amounts.filter(({ schema }) => schema.format !== 'money').map((p) => p.where)).toEqual(KNOWN_UNFORMATTED);
  });

  it('the compatible family\'s string amounts are `decimal-amount`', () => {
    // (A cob's infoAdicionais are free name/valor text pairs, not amounts.)
    const amounts = properties().filter(({ where, name, schema }) => schema.type === 'string' && /^(valor|original)$/.test(name) && !where.includes('infoAdicionais'));
    expect(amounts.length).toBeGreaterThan(3);
    expect(amounts.filter(({ schema }) => schema.format !== 'decimal-amount').map((p) => p.where)).toEqual([]);
  });

  it('transaction, correlation and client ids are UUIDs v4', () => {
    const ids = properties().filter(({ name }) => /^(transactionId|correlationId|clientId)$/.test(name));
    expect(ids.length).toBeGreaterThan(5);
    expect(ids.filter(({ schema }) => schema.format !== 'uuid').map((p) => p.where)).toEqual([]);
  });
});
