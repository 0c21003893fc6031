/**
 * EMV QRCPS data objects: ID (2 digits) + LEN (2 decimal digits) + VALUE of LEN characters.
 * Length counts characters; parse.ts only lets printable ASCII through, so characters, UTF-16
 * units and bytes all agree.
 */

export interface TlvField {
  id: string;
  value: string;
  /** Sub-fields, for templates only. */
  children?: TlvField[];
}

export type TlvResult = { ok: true; fields: TlvField[] } | { ok: false; reason: string };

/** EMV templates: merchant account information 26-51, additional data 62, language 64, unreserved 80-99. */
export function isTemplateId(id: string): boolean {
  const n = Number(id);
  return (n >= 26 && n <= 51) || n === 62 || n === 64 || (n >= 80 && n <= 99);
}

const HEADER = /^(\d{2})(\d{2})$/;

function parseLevel(text: string, where: string): TlvResult {
  const fields: TlvField[] = [];
  const seen = new Set<string>();
  let i = 0;
  while (i < text.length) {
    const header = HEADER.exec(text.slice(i, i + 4));
    if (!header) return { ok: false, reason: `Malformed field header at position ${i}${where}.` };
    const id = header[1] ?? '';
    const length = Number(header[2]);
    const value = text.slice(i + 4, i + 4 + length);
    if (value.length !== length) return { ok: false, reason: `Field ${id}${where} is longer than the text left.` };
    // A repeated ID would make "the" amount or key ambiguous; EMV allows each ID once per level.
    if (seen.has(id)) return { ok: false, reason: `Field ${id}${where} appears more than once.` };
    seen.add(id);
    fields.push({ id, value });
    i += 4 + length;
  }
  return { ok: true, fields };
}

/** Parses one level, and the sub-fields of each template ID (templates never nest further). */
export function parseTlv(text: string, isTemplate: (id: string) => boolean = isTemplateId): TlvResult {
  const top = parseLevel(text, '');
  if (!top.ok) return top;
  for (const field of top.fields) {
    if (!isTemplate(field.id)) continue;
    const inner = parseLevel(field.value, ` inside template ${field.id}`);
    if (!inner.ok) return inner;
    field.children = inner.fields;
  }
  return top;
}

/** Value of a field by ID, if present. */
export function valueOf(fields: readonly TlvField[] | undefined, id: string): string | undefined {
  return fields?.find((f) => f.id === id)?.value;
}

/** Encodes one field; values longer than 99 characters cannot be written and throw. */
export function tlv(id: string, value: string): string {
  if (!/^\d{2}$/.test(id)) throw new RangeError(`A field ID has 2 digits: ${id}`);
  if (value.length > 99) throw new RangeError(`Field ${id} is ${value.length} characters long (max 99).`);
  return `${id}${String(value.length).padStart(2, '0')}${value}`;
}
