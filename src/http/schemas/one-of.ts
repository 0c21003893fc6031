import { Type, type SchemaOptions, type TLiteral, type TUnion } from '@sinclair/typebox';

type LiteralsOf<T extends readonly string[]> = { -readonly [K in keyof T]: TLiteral<T[K]> };

/**
 * A closed list of src/domain/closed-lists.ts as a request or answer field: the same union of
 * literals a hand-written `Type.Union([Type.Literal(...), ...])` gives (so the OpenAPI document and
 * the validation texts stay what they were), written from the one list.
 */
export function OneOf<const T extends readonly string[]>(values: T, options: SchemaOptions = {}): TUnion<LiteralsOf<T>> {
  return Type.Union(values.map((value) => Type.Literal(value)), options) as unknown as TUnion<LiteralsOf<T>>;
}
