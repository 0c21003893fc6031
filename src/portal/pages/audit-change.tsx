/** @jsxImportSource hono/jsx */
import { brl } from '../format.ts';

/** Leaves of a JSON object as dotted paths: {limits: {daily: 1}} -> [["limits.daily", 1]]. */
function leaves(value: unknown, prefix = ''): Array<[string, unknown]> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return prefix ? [[prefix, value]] : [];
  return Object.entries(value as Record<string, unknown>).flatMap(([key, inner]) => leaves(inner, prefix ? `${prefix}.${key}` : key));
}

/** Audit records keep cents and basis points (exact); people read reais and percent. */
function shown(path: string, value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'number' && /^limits\.|\.fixed$/.test(path)) return brl(value);
  if (typeof value === 'number' && /percentBp$/.test(path)) return `${(value / 100).toLocaleString('pt-BR')} %`;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * What an audit record changed: for an update, only the values that differ (before → after); for a
 * creation or a removal, what was there.
 */
export function AuditChange(props: { before: unknown; after: unknown; unchanged: string }) {
  const before = new Map(leaves(props.before));
  const after = new Map(leaves(props.after));
  const paths = [...new Set([...before.keys(), ...after.keys()])];
  const lines = paths
    .filter((p) => !(before.size && after.size) || JSON.stringify(before.get(p)) !== JSON.stringify(after.get(p)))
    .map((p) => {
      const label = p.replace(/percentBp$/, 'percent');
      if (before.size && after.size) return `${label}: ${shown(p, before.get(p))} → ${shown(p, after.get(p))}`;
      return `${label}: ${shown(p, after.size ? after.get(p) : before.get(p))}`;
    });
  if (lines.length === 0) return <span class="hint">{before.size && after.size ? props.unchanged : '—'}</span>;
  return (
    <ul class="change">
      {lines.map((line) => <li>{line}</li>)}
    </ul>
  );
}
