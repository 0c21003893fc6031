import { Type, type Static, type TSchema } from '@sinclair/typebox';

/**
 * How every admin list pages (docs/decisions.md "Admin API parity"): `page` (1-based, default 1) and
 * `pageSize` (1-100, default 20) in the query; the answer is `{data, metadata: {total, page, pageSize,
 * totalPages}}`, newest first, as the spec's MED list answers. A page past the last is an empty `data`.
 */
export const PageQuery = {
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1, description: '1-based page number' })),
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'items per page, 1-100' })),
};

export const PageMetadata = Type.Object({
  total: Type.Integer({ description: 'items matching the filters, on every page' }),
  page: Type.Integer(),
  pageSize: Type.Integer(),
  totalPages: Type.Integer(),
});

export const PageOf = <T extends TSchema>(item: T) => Type.Object({ data: Type.Array(item), metadata: PageMetadata });

/** The page asked for, with the defaults applied. */
export const pageAsked = (query: { page?: number | undefined; pageSize?: number | undefined }) => ({ page: query.page ?? 1, pageSize: query.pageSize ?? 20 });

/** The answer of a list: its page of items and where it stands. */
export function pageView<T>(data: T[], total: number, asked: { page: number; pageSize: number }): { data: T[]; metadata: Static<typeof PageMetadata> } {
  return { data, metadata: { total, page: asked.page, pageSize: asked.pageSize, totalPages: Math.ceil(total / asked.pageSize) } };
}
