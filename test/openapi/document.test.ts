import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crc16 } from '../../src/domain/brcode/crc16.ts';
import { isValidCnpj, isValidCpf } from '../../src/domain/documents.ts';
import { OPERATION_EXAMPLES } from '../../src/http/openapi/examples.ts';
import { addServiceFormats } from '../../src/http/validation.ts';
import { startHarness, type Harness } from '../harness.ts';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const ENVELOPE: Array<[RegExp, string]> = [
  [/^\/oauth\/token$/, 'OAuthError'],
  [/^\/api\//, 'ApiError'],
  [/.*/, 'ShortError'],
];

describe('GET /openapi.json: the contract', () => {
  let h: Harness;
  let doc: any;
  const operations = () =>
    Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([path, item]) =>
      METHODS.filter((m) => item[m]).map((method) => ({ path, method, op: item[method] })),
    );

  beforeAll(async () => {
    h = await startHarness({ env: { PUBLIC_URL: 'https://sandbox.pix.example.com' } });
    doc = (await h.app.inject({ method: 'GET', url: '/openapi.json' })).json();
  });
  afterAll(() => h.close());

  it('names its server (PUBLIC_URL) and opens on the getting-started guide', () => {
    expect(doc.servers).toEqual([{ url: 'https://sandbox.pix.example.com', description: 'This sandbox' }]);
    expect(doc.info.description).toMatch(/## Getting started/);
    expect(doc.info.description).toContain('https://sandbox.pix.example.com/api/auth/token');
  });

  it('gives every operation a unique operationId, a summary, tags and its security, admin and sandbox included', () => {
    const ops = operations();
    expect(ops.length).toBeGreaterThan(40);
    const ids = ops.map(({ op }) => op.operationId);
    expect(ids.every((id) => typeof id === 'string' && /^[a-z][A-Za-z0-9]+$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { path, method, op } of ops) {
      expect(op.summary, `${method} ${path}`).toMatch(/\w/);
      expect(op.tags?.length, `${method} ${path}`).toBeGreaterThan(0);
      expect(Array.isArray(op.security), `${method} ${path}`).toBe(true);
    }
    expect(doc.paths['/admin/accounts'].post.security).toEqual([{ admin: [] }]);
    expect(doc.paths['/sandbox/deposits'].post.security).toEqual([{ admin: [] }, { bearer: [] }]);
    expect(doc.paths['/api/pix/cash-out'].post.security).toEqual([{ bearer: ['pix:write'] }]);
    expect(doc.paths['/health'].get.security).toEqual([]);
  });

  it('answers every error with its family\'s shared envelope, by reference; 429 and 503 name Retry-After', () => {
    for (const { path, method, op } of operations()) {
      // Readiness answers its 503 with the failing checks (for probes), not an error envelope.
      if (path === '/ready') continue;
      const envelope = ENVELOPE.find(([re]) => re.test(path))![1];
      const errors = Object.entries(op.responses as Record<string, any>).filter(([status]) => Number(status) >= 400);
      expect(errors.length, `${method} ${path}`).toBeGreaterThan(0);
      for (const [status, response] of errors) {
        expect(response.content['application/json'].schema, `${method} ${path} ${status}`).toEqual({ $ref: `#/components/schemas/${envelope}` });
        if (status === '429' || status === '503') expect(response.headers['retry-after'], `${method} ${path} ${status}`).toBeDefined();
      }
    }
    expect(Object.keys(doc.components.schemas)).toEqual(expect.arrayContaining(['ApiError', 'ShortError', 'OAuthError']));
    // An authenticated route documents 401 and 403; a route with a path parameter documents 404.
    expect(Object.keys(doc.paths['/api/pix/transaction/{id}'].get.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '403', '404', '500', '503']));
  });

  it('uses standard formats, and documents each custom one (money and the domain checks)', () => {
    const formats = new Set<string>();
    JSON.stringify(doc, (key, value) => {
      if (key === 'format' && typeof value === 'string') formats.add(value);
      return value;
    });
    const standard = ['date-time', 'date', 'uri', 'uuid', 'email', 'ipv4'];
    const custom = [...formats].filter((f) => !standard.includes(f));
    expect(custom).toContain('money');
    for (const format of custom) expect(doc.info.description, format).toContain(`\`${format}\``);
  });

  it('lists every webhook event (OpenAPI 3.1 webhooks) with its payload and the signature headers', () => {
    expect(Object.keys(doc.webhooks).sort()).toEqual(['cash_in', 'cash_out', 'med_accepted', 'med_created', 'med_rejected', 'refund_in', 'refund_out']);
    for (const [name, item] of Object.entries(doc.webhooks as Record<string, any>)) {
      const headers = item.post.parameters.filter((p: any) => p.in === 'header').map((p: any) => p.name);
      expect(headers, name).toEqual(['webhook-id', 'webhook-timestamp', 'webhook-signature']);
      const schema = item.post.requestBody.content['application/json'].schema;
      const refs: string[] = schema.oneOf ? schema.oneOf.map((s: any) => s.$ref) : [schema.$ref];
      for (const ref of refs) expect(doc.components.schemas[ref.split('/').pop()!], `${name} ${ref}`).toBeDefined();
    }
  });

  it('gives every JSON request body and every JSON success answer an example (the document itself excepted)', () => {
    const missing: string[] = [];
    for (const { path, method, op } of operations()) {
      if (path === '/openapi.json') continue;
      if (op.requestBody?.content?.['application/json'] && op.requestBody.content['application/json'].example === undefined) missing.push(`${method} ${path} request`);
      for (const [status, response] of Object.entries(op.responses as Record<string, any>)) {
        if (Number(status) < 400 && response.content?.['application/json'] && response.content['application/json'].example === undefined) missing.push(`${method} ${path} ${status}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('carries realistic examples that its own schemas accept (valid CPFs and CNPJs, checked BR Codes)', () => {
    // ajv ignores a format it does not know, with a warning: here every warning fails the test, and the
    // formats are the service's own (money, the CPF/CNPJ check digits, PIX keys, participants...).
    const warnings: string[] = [];
    const ajv = new Ajv2020({
      strict: false,
      allErrors: true,
      logger: { log: () => {}, warn: (...args: unknown[]) => void warnings.push(args.join(' ')), error: (...args: unknown[]) => void warnings.push(args.join(' ')) },
    });
    addServiceFormats(ajv);
    ajv.addSchema({ $id: 'doc', components: doc.components } as object);
    const resolve = (schema: any) => JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/'));
    let checked = 0;
    for (const { path, method, op } of operations()) {
      const media = [
        ['request', op.requestBody?.content?.['application/json']],
        ...Object.entries(op.responses as Record<string, any>).map(([status, r]) => [status, r.content?.['application/json']]),
      ] as Array<[string, any]>;
      for (const [where, m] of media) {
        if (m?.example === undefined) continue;
        const validate = ajv.compile(resolve(m.schema));
        expect(validate(m.example), `${method} ${path} ${where}: ${ajv.errorsText(validate.errors)}`).toBe(true);
        checked += 1;
      }
    }
    expect(warnings).toEqual([]);
    // The formats do judge: the cash-out example with a CPF whose check digit is wrong is refused.
    const cashOut = doc.paths['/api/pix/cash-out'].post.requestBody.content['application/json'];
    const badCpf = structuredClone(cashOut.example);
    badCpf.details.document = '52998224724';
    const validateCashOut = ajv.compile(resolve(cashOut.schema));
    expect(validateCashOut(cashOut.example)).toBe(true);
    expect(validateCashOut(badCpf)).toBe(false);
    expect(validateCashOut.errors?.map((e) => e.params)).toContainEqual({ format: 'document' });
    expect(checked).toBeGreaterThanOrEqual(Object.values(OPERATION_EXAMPLES).reduce((n, e) => n + (e.request ? 1 : 0) + Object.keys(e.responses ?? {}).length, 0));
    const documents = JSON.stringify(OPERATION_EXAMPLES).match(/"(?:document|creditorDocument|cpf|cnpj)":"(\d{11}|\d{14})"/g) ?? [];
    expect(documents.length).toBeGreaterThan(5);
    for (const found of documents) {
      const value = found.split(':')[1]!.replaceAll('"', '');
      expect(value.length === 11 ? isValidCpf(value) : isValidCnpj(value), value).toBe(true);
    }
    const brCodes = JSON.stringify(OPERATION_EXAMPLES).match(/000201[^"]+/g) ?? [];
    expect(brCodes.length).toBeGreaterThanOrEqual(2);
    for (const code of brCodes) expect(crc16(code.slice(0, -4)), code).toBe(code.slice(-4));
  });
  it('shows a realistic example for each error status of each operation, in its envelope (issue 21 item 6)', () => {
    let checked = 0;
    for (const { path, method, op } of operations()) {
      if (path === '/ready') continue;
      const examples = new Map<string, string>();
      for (const [status, response] of Object.entries(op.responses as Record<string, any>)) {
        if (Number(status) < 400) continue;
        const example = response.content['application/json'].example;
        expect(example, `${method} ${path} ${status}`).toBeDefined();
        if (example.statusCode !== undefined) expect(example.statusCode, `${method} ${path} ${status}`).toBe(Number(status));
        examples.set(status, JSON.stringify(example));
        checked += 1;
      }
      // No two statuses of one operation share an example (they all once showed the same 400).
      expect(new Set(examples.values()).size, `${method} ${path}`).toBe(examples.size);
    }
    expect(checked).toBeGreaterThan(300);
    const cashOut = doc.paths['/api/pix/cash-out'].post.responses;
    expect(cashOut['400'].content['application/json'].example).toMatchObject({ statusCode: 400, path: '/api/pix/cash-out', method: 'POST', code: 'HTTP_ERROR', message: ['value is required', 'externalId is required', 'details is required'] });
    expect(cashOut['401'].content['application/json'].example).toMatchObject({ statusCode: 401, message: 'The access token is missing, invalid or expired.', error: 'Unauthorized' });
    expect(cashOut['403'].content['application/json'].example).toMatchObject({ statusCode: 403, message: 'This route needs the scope pix:write', details: { requiredScope: 'pix:write' } });
    expect(cashOut['500'].content['application/json'].example).toMatchObject({ code: 'PROVIDER_UNAVAILABLE' });
    expect(doc.paths['/api/pix/transaction/{id}'].get.responses['404'].content['application/json'].example).toMatchObject({ message: 'Transaction not found', path: expect.stringMatching(/^\/api\/pix\/transaction\/[0-9a-f-]{36}$/) });
    expect(doc.paths['/dict/pix'].post.responses['422'].content['application/json'].example).toEqual({ statusCode: 422, message: 'This idempotency key was already used with a different request body.', error: 'Unprocessable Entity' });
    expect(doc.paths['/admin/accounts/{id}'].get.responses['401'].content['application/json'].example).toEqual({ statusCode: 401, message: 'Send Authorization: Bearer <ADMIN_TOKEN>', error: 'Unauthorized' });
    expect(doc.paths['/oauth/token'].post.responses['429'].content['application/json'].example).toMatchObject({ error: 'slow_down', error_code: 'RATE_LIMITED' });
  });

  it('documents X-Sandbox-Scenario as an enum of its values plus delayed:Ns, in public words only', () => {
    const header = doc.paths['/api/pix/cash-out'].post.parameters.find((p: any) => p.name === 'x-sandbox-scenario');
    const [values, delayed] = header.schema.anyOf;
    expect(values.enum).toEqual(expect.arrayContaining(['success', 'pending', 'error:insufficient-funds', 'error:document-mismatch', 'error:provider-unavailable']));
    expect(values.enum).toHaveLength(13);
    expect(new RegExp(delayed.pattern).test('delayed:10s')).toBe(true);
    expect(header.description).toContain('`error:insufficient-funds` (INSUFFICIENT_FUNDS)');
    // Nothing internal, and nothing a Markdown renderer would take for an HTML tag.
    const outsideCode = (text: string) => text.replace(/`[^`]*`/g, '');
    const texts: string[] = [];
    JSON.stringify(doc.paths, (key, value) => {
      if ((key === 'description' || key === 'summary') && typeof value === 'string') texts.push(value);
      return value;
    });
    for (const text of texts) {
      expect(outsideCode(text), text).not.toMatch(/decisions \d|\(decisions|issue \d+|<[a-z][a-z-]*>/i);
    }
    for (const operation of ['/api/pix/cash-in', '/api/pix/cash-out-qrcode', '/api/pix/refund-in/{id}', '/dict/pix', '/pix/{e2eid}/devolucao/{id}']) {
      const item = doc.paths[operation];
      const op = item.post ?? item.put;
      expect(op.parameters.find((p: any) => p.name === 'x-sandbox-scenario').schema.anyOf, operation).toHaveLength(2);
    }
  });

  it('documents the 401 and 404 of GET /metrics with what causes them', () => {
    const responses = doc.paths['/metrics'].get.responses;
    expect(responses['401'].description).toContain('METRICS_TOKEN is set');
    expect(responses['401'].content['application/json'].example).toEqual({ statusCode: 401, message: 'Send Authorization: Bearer <METRICS_TOKEN>', error: 'Unauthorized' });
    expect(responses['404'].description).toContain('Production without METRICS_TOKEN');
    expect(responses['404'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ShortError' });
  });
});

