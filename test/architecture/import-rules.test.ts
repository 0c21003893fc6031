import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * Issue 22 item 4: the port is the only door. Read from the syntax tree (every import form, type
 * imports included, never a text match): nothing but the wiring imports a network adapter's folder
 * (not a service, the domain, the ledger, jobs, webhooks, the portal, the database layer, the HTTP
 * layer, nor the port itself); nothing but the container constructs an adapter; no service branches
 * on the mode (the container injects the policy instead).
 */
const SRC = path.resolve(import.meta.dirname, '../../src');
const ADAPTER_FOLDERS = ['network/sandbox', 'network/provider'].map((f) => path.join(SRC, f) + path.sep);
/**
 * Layers that talk to the network through the port only: each folder with everything under it, and
 * the files directly in src/ and in src/network/ (the port and its policies: the port does not know
 * its adapters). Left out: the adapters' own folders and WIRING.
 */
const PORT_ONLY = [
  ...['services', 'domain', 'ledger', 'jobs', 'webhooks', 'portal', 'db', 'http', 'observability', 'wiring'].map((f) => ({ folder: path.join(SRC, f), deep: true })),
  ...['', 'network'].map((f) => ({ folder: path.join(SRC, f), deep: false })),
];
/** The one wiring file (it builds the adapters) and the start-up that runs it. */
const WIRING = ['container.ts', 'main.ts'].map((f) => path.join(SRC, f));
const CONTAINER = path.join(SRC, 'container.ts');
const isPortOnly = (file: string) =>
  !WIRING.includes(file) && PORT_ONLY.some(({ folder, deep }) => (deep ? file.startsWith(folder + path.sep) : path.dirname(file) === folder));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return sourceFiles(file);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [file] : [];
  });
}

const parse = (file: string, text = readFileSync(file, 'utf8')) =>
  ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);

/** Every module a file refers to: imports and re-exports (type-only too), `import x = require()`, `import()`, `typeof import()`. */
function moduleReferences(source: ts.SourceFile): Array<{ specifier: string; names: string[] }> {
  const found: Array<{ specifier: string; names: string[] }> = [];
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const names = [
        ...(clause?.name ? [clause.name.text] : []),
        ...(clause?.namedBindings && ts.isNamedImports(clause.namedBindings) ? clause.namedBindings.elements.map((e) => (e.propertyName ?? e.name).text) : []),
        ...(clause?.namedBindings && ts.isNamespaceImport(clause.namedBindings) ? ['*'] : []),
      ];
      found.push({ specifier: node.moduleSpecifier.text, names });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const names = node.exportClause && ts.isNamedExports(node.exportClause) ? node.exportClause.elements.map((e) => (e.propertyName ?? e.name).text) : ['*'];
      found.push({ specifier: node.moduleSpecifier.text, names });
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference) && ts.isStringLiteral(node.moduleReference.expression)) {
      found.push({ specifier: node.moduleReference.expression.text, names: ['*'] });
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteralLike(node.arguments[0])) {
      found.push({ specifier: node.arguments[0].text, names: ['*'] });
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      found.push({ specifier: node.argument.literal.text, names: node.qualifier ? [ts.isIdentifier(node.qualifier) ? node.qualifier.text : node.qualifier.right.text] : ['*'] });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const resolve = (from: string, specifier: string) => (specifier.startsWith('.') ? path.resolve(path.dirname(from), specifier) : undefined);
const adapterFolderOf = (file: string | undefined) => (file ? ADAPTER_FOLDERS.find((folder) => file.startsWith(folder)) : undefined);

/** The files of the port-only layers that reach into an adapter's folder, and how. */
function adapterImports(files: Array<{ file: string; text?: string }>): string[] {
  const offences: string[] = [];
  for (const { file, text } of files) {
    if (!isPortOnly(file)) continue;
    for (const ref of moduleReferences(parse(file, text))) {
      if (adapterFolderOf(resolve(file, ref.specifier))) offences.push(`${path.relative(SRC, file)} -> ${ref.specifier}`);
    }
  }
  return offences;
}

/** The adapters' constructors: the exported `create...Network` functions of each adapter folder. */
function adapterConstructors(): Map<string, string> {
  const constructors = new Map<string, string>();
  for (const folder of ADAPTER_FOLDERS) {
    for (const file of sourceFiles(folder)) {
      const visit = (node: ts.Node) => {
        if (ts.isFunctionDeclaration(node) && node.name && /^create\w*Network$/.test(node.name.text) && node.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) {
          constructors.set(node.name.text, file);
        }
        ts.forEachChild(node, visit);
      };
      visit(parse(file));
    }
  }
  return constructors;
}

/** Files other than the container (and the adapter's own folder) that import or call an adapter's constructor. */
function adapterConstructions(files: Array<{ file: string; text?: string }>, constructors: Map<string, string>): string[] {
  const offences: string[] = [];
  for (const { file, text } of files) {
    if (file === CONTAINER) continue;
    const source = parse(file, text);
    for (const ref of moduleReferences(source)) {
      const target = resolve(file, ref.specifier);
      const folder = adapterFolderOf(target);
      if (!folder || file.startsWith(folder)) continue;
      const named = ref.names.filter((n) => n === '*' || [...constructors].some(([name, at]) => name === n && target && at.startsWith(target.replace(/\.tsx?$/, ''))));
      if (named.length > 0) offences.push(`${path.relative(SRC, file)} imports ${named.join(', ')} from ${ref.specifier}`);
    }
    const visit = (node: ts.Node) => {
      if (ts.isCallExpression(node)) {
        const callee = ts.isIdentifier(node.expression) ? node.expression.text : ts.isPropertyAccessExpression(node.expression) ? node.expression.name.text : undefined;
        const at = callee ? constructors.get(callee) : undefined;
        if (at && !file.startsWith(adapterFolderOf(at)!)) offences.push(`${path.relative(SRC, file)} calls ${callee}`);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return offences;
}

/** Where a service reads or compares the mode: `x.mode`, `MODE`, or a comparison with 'sandbox' / 'production'. */
function modeBranches(files: Array<{ file: string; text?: string }>): string[] {
  const offences: string[] = [];
  for (const { file, text } of files) {
    const source = parse(file, text);
    const at = (node: ts.Node) => `${path.relative(SRC, file)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
    const visit = (node: ts.Node) => {
      // `deps.mode`, `config.mode` (a file's `statSync(f).mode` is its permission bits, not ours).
      if (ts.isPropertyAccessExpression(node) && node.name.text === 'mode' && !ts.isCallExpression(node.expression)) offences.push(`${at(node)} reads .mode`);
      if (ts.isIdentifier(node) && node.text === 'MODE') offences.push(`${at(node)} reads MODE`);
      if (ts.isStringLiteral(node) && node.text === 'MODE' && ts.isElementAccessExpression(node.parent)) offences.push(`${at(node)} reads ['MODE']`);
      if (ts.isBinaryExpression(node) && [ts.SyntaxKind.EqualsEqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsEqualsToken, ts.SyntaxKind.EqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsToken].includes(node.operatorToken.kind)) {
        const literal = [node.left, node.right].find((side) => ts.isStringLiteralLike(side) && (side.text === 'sandbox' || side.text === 'production'));
        if (literal) offences.push(`${at(node)} compares with '${(literal as ts.StringLiteral).text}'`);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return offences;
}

const all = () => sourceFiles(SRC).map((file) => ({ file }));
const services = () => [...sourceFiles(path.join(SRC, 'services')), ...sourceFiles(path.join(SRC, 'network'))].map((file) => ({ file }));
const virtual = (relative: string, text: string) => [{ file: path.join(SRC, relative), text }];

describe('the port is the only door (syntax-tree rules over src/)', () => {
  it('no file but the wiring imports an adapter folder (services, domain, ledger, jobs, webhooks, portal, db, http, the port), type imports included', () => {
    expect(adapterImports(all())).toEqual([]);
  });

  it('every file of src/ is port-only, in an adapter folder, or the wiring: a new layer cannot slip past the rule', () => {
    expect(sourceFiles(SRC).filter((file) => !isPortOnly(file) && !adapterFolderOf(file) && !WIRING.includes(file)).map((f) => path.relative(SRC, f))).toEqual([]);
  });

  it('nothing but the container constructs an adapter', () => {
    const constructors = adapterConstructors();
    expect([...constructors.keys()].sort()).toEqual(['createProviderNetwork', 'createSandboxNetwork']);
    expect(adapterConstructions(all(), constructors)).toEqual([]);
  });

  it('no service or adapter branches on the mode: the container injects the policy', () => {
    expect(modeBranches(services())).toEqual([]);
  });

  it('the rules see what a text search would miss (each catches its violation)', () => {
    expect(adapterImports(virtual('services/x.ts', "import type { ProviderHealth } from '../network/provider/provider-network.ts';"))).toEqual([
      'services/x.ts -> ../network/provider/provider-network.ts',
    ]);
    expect(adapterImports(virtual('portal/x.ts', "export { DEFAULT_PAYER } from '../network/sandbox/sandbox-network.ts';\ntype B = typeof import('../network/sandbox/key-directory.ts');"))).toHaveLength(2);
    expect(adapterImports(virtual('http/openapi/x.ts', "import { NOT_FOUND_KEYS } from '../../network/sandbox/key-directory.ts';"))).toEqual([
      'http/openapi/x.ts -> ../../network/sandbox/key-directory.ts',
    ]);
    expect(adapterImports(virtual('http/routes/network/x.ts', "import type { ProviderHealth } from '../../../network/provider/provider-network.ts';"))).toHaveLength(1);
    expect(adapterImports(virtual('network/x.ts', "import { isNotFoundKey } from './sandbox/key-directory.ts';"))).toEqual(['network/x.ts -> ./sandbox/key-directory.ts']);
    expect(adapterImports(virtual('x.ts', "import { NOTICE_PATH } from './network/provider/types.ts';"))).toHaveLength(1);
    // The wiring and the adapters themselves may.
    expect(adapterImports(virtual('container.ts', "import { createSandboxNetwork } from './network/sandbox/sandbox-network.ts';"))).toEqual([]);
    expect(adapterImports(virtual('network/sandbox/x.ts', "import { isNotFoundKey } from './key-directory.ts';"))).toEqual([]);
    const constructors = adapterConstructors();
    expect(adapterConstructions(virtual('services/y.ts', "import { createSandboxNetwork as make } from '../network/sandbox/sandbox-network.ts';"), constructors)).toHaveLength(1);
    expect(adapterConstructions(virtual('http/y.ts', 'const n = deps.createProviderNetwork({});'), constructors)).toEqual(['http/y.ts calls createProviderNetwork']);
    expect(modeBranches(virtual('services/z.ts', "export const f = (deps: { mode: string }) => (deps.mode === 'production' ? 1 : 2);"))).toEqual([
      "services/z.ts:1 compares with 'production'",
      'services/z.ts:1 reads .mode',
    ]);
    expect(modeBranches(virtual('services/z.ts', "export const g = (m: string) => m !== 'sandbox'; export const h = () => process.env['MODE'];"))).toHaveLength(2);
  });
});
