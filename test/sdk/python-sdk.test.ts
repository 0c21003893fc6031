import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { exportDocument } from '../../scripts/document.ts';
import { pythonFromDocument } from '../../sdk/scripts/python-from-document.ts';

/** Issue 32: the Python SDK's generated modules are what `npm run sdk:python` makes from the current document. */
describe('the Python SDK (sdk-python/pix_account_service) generated from /openapi.json', () => {
  let document: Promise<Record<string, unknown>> | undefined;
  let files: Record<string, string> | undefined;
  const current = () => (document ??= exportDocument());
  const generated = async () => (files ??= pythonFromDocument(await current()));

  it('the committed generated modules reproduce byte for byte (npm run sdk:python)', async () => {
    const expected = await generated();
    expect(Object.keys(expected).sort()).toEqual(['_async_resources.py', '_clients.py', '_resources.py', 'models.py']);
    for (const [name, text] of Object.entries(expected)) {
      const committed = readFileSync(new URL(`../../sdk-python/pix_account_service/${name}`, import.meta.url), 'utf8');
      expect(committed === text, `sdk-python/pix_account_service/${name} is out of date: run npm run sdk:python`).toBe(true);
      expect(text.startsWith('# Generated from the service\'s OpenAPI document by sdk/scripts/generate-python.ts: run `npm run sdk:python`, do not edit.\n')).toBe(true);
    }
  }, 180_000); // building the document is seconds of CPU: minutes on a loaded CI machine

  it('covers every operation of the document, with the resource names decisions.md section 8 fixes', async () => {
    const { paths } = (await current()) as { paths: Record<string, Record<string, { operationId: string }>> };
    const { '_resources.py': resources, '_clients.py': clients } = await generated();
    for (const item of Object.values(paths)) {
      for (const operation of Object.values(item)) expect(resources).toContain(`_OPERATIONS["${operation.operationId}"]`);
    }
    for (const [resource, method] of [['balance', 'get'], ['cash_out', 'create'], ['cash_out_qr_code', 'create'], ['charges', 'create'], ['transactions', 'list'], ['transactions', 'get'], ['refunds', 'create'], ['webhooks', 'list'], ['dict_pix', 'create']]) {
      const className = `${resource!.split('_').map((w) => w[0]!.toUpperCase() + w.slice(1)).join('')}Resource`;
      expect(clients).toContain(`        self.${resource} = _s.${className}(self)`);
      expect(resources).toMatch(new RegExp(`class ${className}\\(SyncResource\\):[\\s\\S]*?    def ${method}\\(`));
    }
  }, 180_000);

  it('a new operation and a new field appear on regeneration without touching the generator', async () => {
    const changed = structuredClone(await current()) as any;
    changed.paths['/api/events'] = {
      get: {
        operationId: 'listEvents',
        tags: ['events'],
        security: [{ bearer: ['webhook:read'] }],
        parameters: [{ in: 'query', name: 'after', schema: { type: 'string' } }],
        responses: { 200: { description: 'ok', content: { 'application/json': { schema: { type: 'object', required: ['data'], properties: { data: { type: 'array', items: { type: 'object', required: ['id', 'createdAt'], properties: { id: { type: 'string' }, createdAt: { type: 'string' } } } }, metadata: { type: 'object', properties: { hasMore: { type: 'boolean' } } } } } } } } },
      },
    };
    changed.paths['/api/events/stream'] = {
      get: {
        operationId: 'streamEvents',
        tags: ['events'],
        security: [{ bearer: ['webhook:read'] }],
        parameters: [{ in: 'query', name: 'type', schema: { type: 'string' } }, { in: 'header', name: 'Last-Event-ID', schema: { type: 'string' } }],
        responses: { 200: { description: 'events', content: { 'text/event-stream': { schema: { type: 'string' } } } } },
      },
    };
    changed.paths['/api/balance'].get.responses['200'].content['application/json'].schema.properties.reservedBalance = { type: 'number', format: 'money' };
    const regenerated = pythonFromDocument(changed);
    expect(regenerated['_resources.py']).toMatch(/class EventsResource\(SyncResource\):[\s\S]*?    def list\(self, \*, after: str \| None = None\) -> SyncPager\[ListEventsResponse, ListEventsResponseDataItem\]:/);
    expect(regenerated['_resources.py']).toContain('    def stream(self, *, type: str | None = None, last_event_id: str | None = None) -> Iterator[ServerSentEvent]:');
    expect(regenerated['_async_resources.py']).toContain('    def stream(self, *, type: str | None = None, last_event_id: str | None = None) -> AsyncIterator[ServerSentEvent]:');
    expect(regenerated['_clients.py']).toContain('        self.events = _s.EventsResource(self)');
    expect(regenerated['models.py']).toMatch(/class GetBalanceResponse:[\s\S]*?    reserved_balance: Decimal \| None = None/);
  }, 180_000);
});
