/**
 * The generated modules of the Python SDK (sdk-python/pix_account_service) from the service's OpenAPI
 * document: typed models, one method per operation on resource objects, and the clients that hold them.
 * Pure: the same document gives the same bytes (test/sdk/python-sdk.test.ts compares them).
 *
 * Every operation is covered without a list here: its resource and method come from its operationId
 * (`createCashOut` -> `cash_out.create`, `listTransactions` -> `transactions.list`), a singular merged
 * into its plural (`getTransaction` -> `transactions.get`), sandbox routes under `sandbox`, and an
 * operationId that starts with no verb becomes a method of the client itself (`health()`). NAMED fixes
 * the names decisions.md section 8 gives where the rule would say otherwise.
 */

type Schema = Record<string, any>;
type Direction = 'out' | 'in';

const HEADER = '# Generated from the service\'s OpenAPI document by sdk/scripts/generate-python.ts: run `npm run sdk:python`, do not edit.\n';

/** Resource and method names fixed by decisions.md section 8, by `METHOD path` (unused entries are harmless). */
const NAMED: Record<string, [resource: string, method: string]> = {
  'GET /api/balance': ['balance', 'get'],
  'POST /api/pix/cash-out': ['cash_out', 'create'],
  'POST /api/pix/cash-out-qrcode': ['cash_out_qr_code', 'create'],
  'POST /api/pix/cash-in': ['charges', 'create'],
  'GET /api/transactions': ['transactions', 'list'],
  'GET /api/pix/transaction/{id}': ['transactions', 'get'],
  'POST /api/pix/refund-in/{id}': ['refunds', 'create'],
  'GET /api/events': ['events', 'list'],
  'GET /api/events/{id}': ['events', 'get'],
  'GET /api/events/stream': ['events', 'stream'],
  'POST /api/webhooks': ['webhooks', 'create'],
  'GET /api/webhooks': ['webhooks', 'list'],
  'DELETE /api/webhooks/{id}': ['webhooks', 'delete'],
  'POST /api/resend-webhook/{transactionIdentifier}': ['webhooks', 'resend'],
  // Section 8 adds GET .../certificates: the three certificate routes are one resource from now on.
  'POST /admin/accounts/{id}/certificates': ['certificates', 'register'],
  'GET /admin/accounts/{id}/certificates': ['certificates', 'list'],
  'DELETE /admin/certificates/{fingerprint}': ['certificates', 'revoke'],
  'POST /dict/pix': ['dict_pix', 'create'],
  'GET /dict/pix/{id}': ['dict_pix', 'get'],
};

/** The first word of an operationId that is its method (`createCashOut` -> create). */
const VERBS = new Set([
  'get', 'list', 'create', 'register', 'update', 'delete', 'revoke', 'rotate', 'resend', 'send', 'put', 'patch',
  'assign', 'run', 'invite', 'remove', 'replay', 'cancel', 'suspend', 'reactivate', 'advance', 'stream', 'set', 'add',
]);

/** Headers the runtime sends itself (the certificate; the idempotency key, generated when not given). */
const RUNTIME_HEADERS = new Set(['x-ssl-client-cert', 'x-idempotency-key', 'authorization', 'content-type']);

const PY_KEYWORDS = new Set([
  'False', 'None', 'True', 'and', 'as', 'assert', 'async', 'await', 'break', 'class', 'continue', 'def', 'del', 'elif',
  'else', 'except', 'finally', 'for', 'from', 'global', 'if', 'import', 'in', 'is', 'lambda', 'nonlocal', 'not', 'or',
  'pass', 'raise', 'return', 'try', 'while', 'with', 'yield',
  // names the generated annotations use: a field or parameter must not hide them
  'str', 'int', 'float', 'bool', 'list', 'dict', 'object', 'self', 'cls', 'builtins', 'typing', 'decimal',
]);

const words = (name: string) =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
export const snake = (name: string) => {
  const s = words(name).join('_') || 'value';
  const safe = /^[0-9]/.test(s) ? `_${s}` : s;
  return PY_KEYWORDS.has(safe) ? `${safe}_` : safe;
};
const pascal = (name: string) => words(name).map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
const pyString = (value: string) => JSON.stringify(value);

/** A money amount written as a string (`"150.00"`: the compatible family's `valor`, webhook `amount`s). */
const isMoneyText = (s: Schema) => s.type === 'string' && (s.format === 'decimal-amount' || s.pattern === '^\\d{1,10}\\.\\d{2}$');

interface ModelField {
  py: string;
  wire: string;
  annotation: string;
  required: boolean;
}

class Models {
  /** Class name -> its source, in the order made (a class is made before the ones that use it finish). */
  readonly classes = new Map<string, string>();
  /** Class name -> wire names that differ from the Python ones. */
  readonly wireNames = new Map<string, Record<string, string>>();
  /** Class name -> its fields (the paging of a list reads its `data`). */
  readonly fieldsOf = new Map<string, ModelField[]>();
  private readonly refs = new Map<string, string>();

  constructor(private readonly document: Schema) {}

  private unique(name: string) {
    let candidate = name;
    for (let i = 2; this.classes.has(candidate); i += 1) candidate = `${name}${i}`;
    this.classes.set(candidate, '');
    return candidate;
  }

  /** The Python annotation of a schema; objects become dataclasses (out) or TypedDicts (in) named after `hint`. */
  type(schema: Schema | undefined, hint: string, direction: Direction): string {
    if (!schema || typeof schema !== 'object') return 'Any';
    if (typeof schema.$ref === 'string') {
      const name = schema.$ref.split('/').pop()!;
      const key = `${direction}:${name}`;
      const known = this.refs.get(key);
      if (known) return known;
      const target = this.document.components?.schemas?.[name];
      const className = pascal(name) + (direction === 'in' ? 'Param' : '');
      // Reserve the name first: a schema may refer to itself.
      this.refs.set(key, className);
      const made = this.type(target, className, direction);
      if (made !== className) this.refs.set(key, made);
      return made;
    }
    if (schema.const !== undefined) return literal([schema.const]);
    if (Array.isArray(schema.enum)) return literal(schema.enum);
    const variants = schema.anyOf ?? schema.oneOf;
    // `oneOf: [{required: [a]}, {required: [b]}]` beside the properties only constrains them: the object stands.
    const constraintsOnly = Array.isArray(variants) && schema.properties && variants.every((v: Schema) => !v.type && !v.$ref && !v.properties && !v.enum && v.const === undefined);
    if (Array.isArray(variants) && !constraintsOnly) return this.union(variants, hint, direction);
    if (Array.isArray(schema.allOf)) {
      if (schema.allOf.length === 1) return this.type(schema.allOf[0], hint, direction);
      const merged: Schema = { type: 'object', properties: {}, required: [] };
      for (const part of schema.allOf) {
        const resolved = this.resolve(part);
        Object.assign(merged.properties, resolved.properties ?? {});
        merged.required.push(...(resolved.required ?? []));
      }
      return this.type(merged, hint, direction);
    }
    if (Array.isArray(schema.type)) return this.union(schema.type.map((type: string) => ({ ...schema, type })), hint, direction);
    switch (schema.type) {
      case 'string':
        if (isMoneyText(schema)) return direction === 'in' ? 'MoneyText' : 'Decimal';
        return 'str';
      case 'number':
        if (schema.format === 'money') return direction === 'in' ? 'Money' : 'Decimal';
        return 'float';
      case 'integer':
        return 'int';
      case 'boolean':
        return 'bool';
      case 'null':
        return 'None';
      case 'array':
        return `List[${this.type(schema.items, `${hint}Item`, direction)}]`;
      case 'object':
        return this.object(schema, hint, direction);
      default:
        return schema.properties ? this.object(schema, hint, direction) : 'Any';
    }
  }

  private resolve(schema: Schema): Schema {
    if (typeof schema?.$ref === 'string') return this.resolve(this.document.components?.schemas?.[schema.$ref.split('/').pop()!] ?? {});
    return schema ?? {};
  }

  private union(variants: Schema[], hint: string, direction: Direction): string {
    const literals: unknown[] = [];
    const others: string[] = [];
    let nullable = false;
    let objectIndex = 0;
    const objects = variants.filter((v) => this.resolve(v).type === 'object' || this.resolve(v).properties).length;
    for (const variant of variants) {
      const resolved = this.resolve(variant);
      if (resolved.type === 'null') nullable = true;
      else if (resolved.const !== undefined) literals.push(resolved.const);
      else if (Array.isArray(resolved.enum) && !variant.$ref) literals.push(...resolved.enum);
      else {
        const isObject = resolved.type === 'object' || resolved.properties;
        if (isObject) objectIndex += 1;
        others.push(this.type(variant, isObject && objects > 1 && !variant.$ref ? `${hint}${objectIndex}` : hint, direction));
      }
    }
    const parts = [...(literals.length ? [literal(literals)] : []), ...others];
    // A literal beside its own base type (`Literal["success"] | str`) keeps both: the names help the reader.
    const unique = [...new Set(parts)];
    if (unique.includes('Any')) return 'Any';
    const joined = unique.length ? unique.join(' | ') : 'Any';
    return nullable ? (unique.length ? `${joined} | None` : 'None') : joined;
  }

  private object(schema: Schema, hint: string, direction: Direction): string {
    const properties: Record<string, Schema> = schema.properties ?? {};
    if (Object.keys(properties).length === 0) {
      const extra = schema.additionalProperties;
      const value = extra && typeof extra === 'object' && Object.keys(extra).length ? this.type(extra, `${hint}Value`, direction) : 'Any';
      return `Dict[str, ${value}]`;
    }
    const name = this.unique(hint);
    const required = new Set<string>(schema.required ?? []);
    const fields: ModelField[] = [];
    const taken = new Set<string>();
    for (const [wire, property] of Object.entries(properties)) {
      let py = snake(wire);
      while (taken.has(py)) py = `${py}_`;
      taken.add(py);
      fields.push({ py, wire, annotation: this.type(property, name + pascal(wire), direction), required: required.has(wire) });
    }
    this.fieldsOf.set(name, fields);
    const renamed = Object.fromEntries(fields.filter((f) => f.py !== f.wire).map((f) => [f.py, f.wire]));
    if (Object.keys(renamed).length) this.wireNames.set(name, renamed);
    const doc = schema.description ? `    ${pyDocstring(schema.description)}\n\n` : '';
    if (direction === 'out') {
      // Required first (no default), then the optional ones (None when the answer leaves them out).
      const ordered = [...fields.filter((f) => f.required), ...fields.filter((f) => !f.required)];
      const body = ordered.map((f) => (f.required ? `    ${f.py}: ${f.annotation}` : `    ${f.py}: ${optional(f.annotation)} = None`));
      this.classes.set(name, `@dataclass(frozen=True)\nclass ${name}:\n${doc}${body.join('\n')}\n`);
    } else {
      const body = fields.map((f) => `    ${f.py}: ${f.required ? f.annotation : `NotRequired[${f.annotation}]`}`);
      this.classes.set(name, `class ${name}(TypedDict):\n${doc}${body.join('\n')}\n`);
    }
    return name;
  }

  isObject(schema: Schema | undefined) {
    if (!schema) return false;
    const resolved = this.resolve(schema);
    return (resolved.type === 'object' || resolved.properties) && Object.keys(resolved.properties ?? {}).length > 0;
  }

  resolved(schema: Schema) {
    return this.resolve(schema);
  }
}

function literal(values: unknown[]) {
  return `Literal[${[...new Set(values)].map((v) => (typeof v === 'string' ? pyString(v) : v === null ? 'None' : typeof v === 'boolean' ? (v ? 'True' : 'False') : String(v))).join(', ')}]`;
}
const optional = (annotation: string) => (annotation === 'None' || annotation === 'Any' || annotation.endsWith('| None') ? annotation : `${annotation} | None`);
function pyDocstring(text: string) {
  const clean = text.replace(/\\/g, '\\\\').replace(/"""/g, '\\"\\"\\"').trim();
  return `"""${clean}${clean.endsWith('"') ? ' ' : ''}"""`;
}

interface Param {
  py: string;
  wire: string;
  annotation: string;
  required: boolean;
  where: 'path' | 'query' | 'header' | 'body';
}

interface Operation {
  id: string;
  method: string;
  path: string;
  summary: string | undefined;
  resource: string | undefined;
  name: string;
  clients: Set<'pix' | 'admin'>;
  security: string[];
  params: Param[];
  body: { kind: 'fields'; typedDict: string } | { kind: 'any' } | { kind: 'form' } | undefined;
  idempotencyKey: boolean;
  externalIdPath: string[] | undefined;
  answerFields: string[];
  result: { kind: 'json'; annotation: string } | { kind: 'text' } | { kind: 'empty' } | { kind: 'events' };
  paging: { cursor: 'page' | 'after'; item: string } | undefined;
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'];

function successResponse(operation: Schema): { status: string; content: Schema | undefined } | undefined {
  const entries = Object.entries((operation.responses ?? {}) as Record<string, Schema>).filter(([status]) => /^2/.test(status));
  entries.sort(([a], [b]) => a.localeCompare(b));
  const first = entries[0];
  return first ? { status: first[0], content: first[1].content } : undefined;
}

/** Where an `externalId` makes a POST safe to repeat: the top level or one object down (`transaction.externalId`). */
function externalIdPath(models: Models, body: Schema | undefined): string[] | undefined {
  if (!body) return undefined;
  const top = models.resolved(body);
  if (top.properties?.externalId) return ['externalId'];
  for (const [name, property] of Object.entries((top.properties ?? {}) as Record<string, Schema>)) {
    if (models.resolved(property).properties?.externalId) return [name, 'externalId'];
  }
  return undefined;
}

function collectOperations(document: Schema, models: Models): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries((document.paths ?? {}) as Record<string, Schema>)) {
    for (const method of HTTP_METHODS) {
      const operation = item[method] as Schema | undefined;
      if (!operation) continue;
      const id: string = operation.operationId ?? `${method}_${path}`;
      const hint = pascal(id);
      const security: string[] = [];
      let anonymous = false;
      for (const requirement of (operation.security ?? document.security ?? []) as Schema[]) {
        const names = Object.keys(requirement);
        if (names.length === 0) anonymous = true;
        security.push(...names);
      }
      if ((operation.security ?? document.security ?? []).length === 0) anonymous = true;
      const clients = new Set<'pix' | 'admin'>();
      if (anonymous || security.includes('bearer') || security.includes('clientBasic')) clients.add('pix');
      if (anonymous || security.includes('admin')) clients.add('admin');

      const params: Param[] = [];
      let idempotencyKey = false;
      for (const p of [...(item.parameters ?? []), ...(operation.parameters ?? [])] as Schema[]) {
        const name: string = p.name;
        if (p.in === 'header' && name.toLowerCase() === 'x-idempotency-key') idempotencyKey = true;
        if (p.in === 'cookie' || (p.in === 'header' && RUNTIME_HEADERS.has(name.toLowerCase()))) continue;
        const py = snake(p.in === 'header' ? name.replace(/^x-/i, '') : name);
        params.push({ py, wire: name, annotation: models.type(p.schema, hint + pascal(name), 'in'), required: Boolean(p.required), where: p.in });
      }

      let body: Operation['body'];
      const content = operation.requestBody?.content as Record<string, Schema> | undefined;
      const json = content?.['application/json']?.schema as Schema | undefined;
      let bodySchema: Schema | undefined;
      if (json && models.isObject(json)) {
        bodySchema = json;
        const typedDict = models.type(json, `${hint}Body`, 'in');
        for (const field of models.fieldsOf.get(typedDict) ?? []) {
          params.push({ ...field, required: field.required && Boolean(operation.requestBody?.required ?? true), where: 'body' });
        }
        body = { kind: 'fields', typedDict };
      } else if (json) body = { kind: 'any' };
      else if (content?.['application/x-www-form-urlencoded']) body = { kind: 'form' };

      // One Python name per parameter: a body field named like a path or query parameter gets `body_`.
      const seen = new Set<string>(['idempotency_key', 'body', 'form']);
      for (const param of params) {
        let py = param.py;
        if (seen.has(py)) py = `${param.where}_${py}`;
        while (seen.has(py)) py = `${py}_`;
        seen.add(py);
        param.py = py;
      }

      const success = successResponse(operation);
      let result: Operation['result'] = { kind: 'empty' };
      let paging: Operation['paging'];
      const responseJson = success?.content?.['application/json']?.schema as Schema | undefined;
      if (success?.content?.['text/event-stream']) result = { kind: 'events' };
      else if (responseJson) {
        const annotation = models.type(responseJson, `${hint}Response`, 'out');
        result = { kind: 'json', annotation };
        const resolved = models.resolved(responseJson);
        const data = resolved.properties?.data as Schema | undefined;
        const cursor = params.some((p) => p.where === 'query' && p.wire === 'after') ? 'after' : params.some((p) => p.where === 'query' && p.wire === 'page') ? 'page' : undefined;
        const list = models.fieldsOf.get(annotation)?.find((f) => f.wire === 'data')?.annotation;
        if (method === 'get' && cursor && data && list?.startsWith('List[')) paging = { cursor, item: list.replace(/^List\[(.*)\]$/, '$1') };
      } else if (success?.content && Object.keys(success.content).length > 0) result = { kind: 'text' };

      operations.push({
        id,
        method: method.toUpperCase(),
        path,
        summary: operation.summary,
        resource: undefined,
        name: '',
        clients,
        security,
        params,
        body,
        idempotencyKey,
        externalIdPath: method === 'post' ? externalIdPath(models, bodySchema) : undefined,
        answerFields: responseJson ? ((models.resolved(responseJson).required ?? []) as string[]) : [],
        result,
        paging,
      });
    }
  }
  nameOperations(operations, document);
  return operations;
}

/** Resource and method of each operation (see the top of this file); a clash falls back to the operationId. */
function nameOperations(operations: Operation[], document: Schema) {
  const tags = (op: Operation) => ((document.paths[op.path]?.[op.method.toLowerCase()]?.tags ?? []) as string[]);
  for (const op of operations) {
    const named = NAMED[`${op.method} ${op.path}`];
    if (named) {
      [op.resource, op.name] = named;
    } else if (tags(op).includes('sandbox')) {
      op.resource = 'sandbox';
      op.name = snake(op.id);
    } else {
      const [verb, ...rest] = words(op.id);
      if (verb && VERBS.has(verb) && rest.length) {
        op.resource = snake(rest.join('_'));
        op.name = verb;
      } else {
        op.resource = undefined;
        op.name = snake(op.id);
      }
    }
  }
  // A singular beside its plural (`transaction`, `transactions`) is the plural, per client.
  for (const client of ['pix', 'admin'] as const) {
    const mine = operations.filter((op) => op.clients.has(client));
    const resources = new Set(mine.map((op) => op.resource));
    for (const op of mine) {
      if (op.resource && !NAMED[`${op.method} ${op.path}`] && resources.has(`${op.resource}s`)) op.resource = `${op.resource}s`;
    }
  }
  const taken = new Set<string>();
  for (const op of operations) {
    const key = () => `${op.resource ?? ''}.${op.name}`;
    if (taken.has(key())) op.name = snake(op.id);
    while (taken.has(key())) op.name = `${op.name}_`;
    taken.add(key());
  }
}

type Client = 'pix' | 'admin';
const CLIENTS: Record<'sync' | 'async', Client[]> = { sync: ['pix', 'admin'], async: ['pix'] };
const prefix = (client: Client, isAsync: boolean) => `${isAsync ? 'Async' : ''}${client === 'admin' ? 'Admin' : ''}`;
const resourceClass = (client: Client, resource: string, isAsync: boolean) => `${prefix(client, isAsync)}${pascal(resource)}Resource`;
const rootClass = (client: Client, isAsync: boolean) => `${prefix(client, isAsync)}${client === 'admin' ? '' : 'Pix'}Operations`;

/** `decode(raw, Class)` for a class; a cast for the other annotations (unions, lists), which are no `type[T]`. */
const decodeCall = (raw: string, annotation: string) =>
  /^[A-Za-z_][A-Za-z0-9_]*$/.test(annotation) && annotation !== 'Any' ? `decode(${raw}, ${annotation})` : `cast(${pyString(annotation)}, decode_as(${raw}, ${annotation}))`;

function methodSource(op: Operation, isAsync: boolean): string {
  const path = op.params.filter((p) => p.where === 'path');
  const others = op.params.filter((p) => p.where !== 'path' && !(op.paging && p.where === 'query' && p.wire === op.paging.cursor));
  const cursorParam = op.paging ? op.params.find((p) => p.where === 'query' && p.wire === op.paging!.cursor) : undefined;
  // A path segment: an id is as good as an int or a str.
  const args = ['self', ...path.map((p) => `${p.py}: ${['Any', 'str', 'int', 'float'].includes(p.annotation) ? 'str | int | float' : p.annotation}`)];
  const keyword = [
    ...others.filter((p) => p.required).map((p) => `${p.py}: ${p.annotation}`),
    ...others.filter((p) => !p.required).map((p) => `${p.py}: ${optional(p.annotation)} = None`),
    ...(cursorParam ? [`${cursorParam.py}: ${optional(cursorParam.annotation)} = None`] : []),
    ...(op.body?.kind === 'any' ? ['body: Any = None'] : []),
    ...(op.body?.kind === 'form' ? ['form: Mapping[str, str] | None = None'] : []),
    ...(op.idempotencyKey ? ['idempotency_key: str | None = None'] : []),
  ];
  if (keyword.length) args.push('*', ...keyword);

  let returns: string;
  if (op.paging) returns = `${isAsync ? 'AsyncPager' : 'SyncPager'}[${op.result.kind === 'json' ? op.result.annotation : 'Any'}, ${op.paging.item}]`;
  else if (op.result.kind === 'json') returns = op.result.annotation;
  else if (op.result.kind === 'text') returns = 'str';
  else if (op.result.kind === 'events') returns = `${isAsync ? 'AsyncIterator' : 'Iterator'}[ServerSentEvent]`;
  else returns = 'None';

  const lines: string[] = [];
  const signature = `    ${isAsync && !op.paging && op.result.kind !== 'events' ? 'async ' : ''}def ${op.name}(${args.join(', ')}) -> ${returns}:`;
  lines.push(signature);
  lines.push(`        ${pyDocstring(`${op.method} ${op.path}${op.summary ? `: ${op.summary}` : ''}`)}`);
  const dict = (items: Param[]) => `{${items.map((p) => `${pyString(p.wire)}: ${p.py}`).join(', ')}}`;
  const call: string[] = [`_OPERATIONS[${pyString(op.id)}]`];
  if (path.length) call.push(`path=${dict(path)}`);
  const query = others.filter((p) => p.where === 'query');
  const headers = others.filter((p) => p.where === 'header');
  const bodyFields = others.filter((p) => p.where === 'body');
  if (headers.length) call.push(`headers=${dict(headers)}`);
  if (op.body?.kind === 'fields') call.push(`json=encode_object(${op.body.typedDict}, {${bodyFields.map((p) => `${pyString(p.py)}: ${p.py}`).join(', ')}})`);
  if (op.body?.kind === 'any') call.push('json=encode(body)');
  if (op.body?.kind === 'form') call.push('form=form');
  if (op.idempotencyKey) call.push('idempotency_key=idempotency_key');

  if (op.paging) {
    const cursorWire = op.paging.cursor;
    const responseType = op.result.kind === 'json' ? op.result.annotation : 'Any';
    const queryItems = [...query.map((p) => `${pyString(p.wire)}: ${p.py}`), `${pyString(cursorWire)}: cursor`];
    lines.push(`        ${isAsync ? 'async ' : ''}def fetch(cursor: str | int | None) -> ${responseType}:`);
    lines.push(`            return ${decodeCall(`${isAsync ? 'await ' : ''}self._client.request(${[...call, `query={${queryItems.join(', ')}}`].join(', ')})`, responseType)}`);
    lines.push(`        return ${isAsync ? 'AsyncPager' : 'SyncPager'}(fetch, ${pyString(cursorWire)}, ${cursorParam!.py})`);
  } else {
    if (query.length) call.push(`query=${dict(query)}`);
    if (op.result.kind === 'events') {
      // A stream: events as they come, read while the caller iterates (no body, no retry).
      lines.push(`        return self._client.stream(${call.filter((c) => !c.startsWith('json=') && !c.startsWith('form=') && !c.startsWith('idempotency_key=')).join(', ')})`);
      return lines.join('\n');
    }
    const request = `${isAsync ? 'await ' : ''}self._client.request(${call.join(', ')})`;
    if (op.result.kind === 'json') lines.push(`        return ${decodeCall(request, op.result.annotation)}`);
    else if (op.result.kind === 'text') lines.push(`        return str(${request})`);
    else lines.push(`        ${request}`);
  }
  return lines.join('\n');
}

function operationTable(operations: Operation[]): string {
  const rows = operations.map((op) => {
    const fields = [
      `method=${pyString(op.method)}`,
      `path=${pyString(op.path)}`,
      `security=(${op.security.map((s) => `${pyString(s)}, `).join('')})`,
      `result=${pyString(op.result.kind)}`,
      ...(op.idempotencyKey ? ['idempotency_key=True'] : []),
      ...(op.externalIdPath ? [`external_id_path=(${op.externalIdPath.map((s) => `${pyString(s)}, `).join('')})`, `answer_fields=(${op.answerFields.map((s) => `${pyString(s)}, `).join('')})`] : []),
    ];
    return `    ${pyString(op.id)}: Operation(${fields.join(', ')}),`;
  });
  return `_OPERATIONS: Dict[str, Operation] = {\n${rows.join('\n')}\n}\n`;
}

function resourcesModule(operations: Operation[], isAsync: boolean, modelNames: string[]): string {
  const base = isAsync ? 'AsyncResource' : 'SyncResource';
  const classes: string[] = [];
  const names: string[] = [];
  for (const client of CLIENTS[isAsync ? 'async' : 'sync']) {
    const mine = operations.filter((op) => op.clients.has(client));
    const byResource = new Map<string, Operation[]>();
    for (const op of mine) {
      if (!op.resource) continue;
      byResource.set(op.resource, [...(byResource.get(op.resource) ?? []), op]);
    }
    for (const [resource, ops] of byResource) {
      const name = resourceClass(client, resource, isAsync);
      names.push(name);
      classes.push(`class ${name}(${base}):\n    \"\"\"The \`${resource}\` operations.\"\"\"\n\n${ops.map((op) => methodSource(op, isAsync)).join('\n\n')}\n`);
    }
    const roots = mine.filter((op) => !op.resource);
    const root = rootClass(client, isAsync);
    names.push(root);
    classes.push(
      `class ${root}(${base}):\n    \"\"\"Operations that belong to no resource (\`client.health()\`, ...).\"\"\"\n\n${roots.map((op) => methodSource(op, isAsync)).join('\n\n') || '    pass'}\n`,
    );
  }
  return [
    HEADER,
    'from __future__ import annotations\n',
    'from decimal import Decimal',
    `from typing import ${isAsync ? 'Any, AsyncIterator' : 'Any, Iterator'}, Dict, List, Literal, Mapping, cast\n`,
    `from ._core import ${isAsync ? 'AsyncPager, AsyncResource' : 'SyncPager, SyncResource'}, Operation, ServerSentEvent, decode, decode_as, encode, encode_object`,
    `from .models import ${['Money', 'MoneyText', ...modelNames].join(', ')}  # noqa: F401`,
    '',
    `__all__ = [${names.map(pyString).join(', ')}]\n`,
    operationTable(operations),
    ...classes.map((c) => `\n${c}`),
  ].join('\n');
}

function clientsModule(operations: Operation[]): string {
  const lines: string[] = [HEADER, 'from __future__ import annotations\n\nfrom . import _async_resources as _a\nfrom . import _resources as _s\nfrom ._base import BaseAdminClient, BaseAsyncPixClient, BasePixClient'];
  const section = (name: string, base: string, client: Client, isAsync: boolean, doc: string) => {
    const resources = [...new Set(operations.filter((op) => op.clients.has(client)).flatMap((op) => (op.resource ? [op.resource] : [])))];
    const mod = isAsync ? '_a' : '_s';
    const body = [`class ${name}(${base}, ${mod}.${rootClass(client, isAsync)}):`, `    ${pyDocstring(doc)}\n`];
    body.push(...resources.map((resource) => `    ${resource}: ${mod}.${resourceClass(client, resource, isAsync)}`), '');
    body.push('    def _attach_resources(self) -> None:');
    body.push(...(resources.length ? resources.map((resource) => `        self.${resource} = ${mod}.${resourceClass(client, resource, isAsync)}(self)`) : ['        pass']));
    return `${body.join('\n')}\n`;
  };
  lines.push(section('PixClient', 'BasePixClient', 'pix', false, 'The account API (sync): `PixClient(base_url, client_id, client_secret, *, certificate_pem=None, cert=None, timeout=30.0)`.'));
  lines.push(section('AsyncPixClient', 'BaseAsyncPixClient', 'pix', true, 'The account API (asyncio), with the same arguments as PixClient.'));
  lines.push(section('AdminClient', 'BaseAdminClient', 'admin', false, 'The operator API: `AdminClient(base_url, admin_token)`.'));
  return lines.join('\n\n');
}

function modelsModule(models: Models, webhookEvent: string): string {
  const classes = [...models.classes.values()].filter(Boolean);
  const wire = [...models.wireNames.entries()].map(
    ([name, map]) => `    ${name}: {${Object.entries(map).map(([py, w]) => `${pyString(py)}: ${pyString(w)}`).join(', ')}},`,
  );
  return [
    HEADER,
    'from __future__ import annotations\n',
    'from dataclasses import dataclass',
    'from decimal import Decimal',
    'from typing import Any, Dict, List, Literal, TypedDict\n',
    'from typing import NotRequired\n',
    'from ._core import Money, MoneyText, register_wire_names\n',
    `__all__ = [${['Money', 'MoneyText', 'WebhookEvent', ...[...models.classes.keys()].filter((n) => models.classes.get(n))].map(pyString).join(', ')}]\n`,
    ...classes.map((c) => `\n${c}`),
    `\n#: Every body the service sends to a webhook URL (the document's \`webhooks\`).\nWebhookEvent = ${webhookEvent}\n`,
    `register_wire_names({\n${wire.join('\n')}\n})\n`,
  ].join('\n');
}

/** The generated files of sdk-python/pix_account_service, by file name. */
export function pythonFromDocument(document: Schema): Record<string, string> {
  const models = new Models(document);
  const operations = collectOperations(document, models);
  const events = new Set<string>();
  for (const hook of Object.values((document.webhooks ?? {}) as Record<string, Schema>)) {
    for (const method of HTTP_METHODS) {
      const schema = hook[method]?.requestBody?.content?.['application/json']?.schema as Schema | undefined;
      if (!schema) continue;
      for (const variant of (schema.oneOf ?? schema.anyOf ?? [schema]) as Schema[]) events.add(models.type(variant, pascal(hook[method].operationId ?? 'WebhookEvent'), 'out'));
    }
  }
  const webhookEvent = events.size ? [...events].join(' | ') : 'Dict[str, Any]';
  const modelNames = [...models.classes.keys()].filter((n) => models.classes.get(n));
  return {
    'models.py': modelsModule(models, webhookEvent),
    '_resources.py': resourcesModule(operations, false, modelNames),
    '_async_resources.py': resourcesModule(operations, true, modelNames),
    '_clients.py': clientsModule(operations),
  };
}
