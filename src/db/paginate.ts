import type { SelectQueryBuilder } from 'kysely';

/**
 * One page of a query's rows (ordered by the query) and how many rows it has in all: the rows with
 * LIMIT/OFFSET, the total from the same query without its selection and order.
 */
export async function paginate<D, TB extends keyof D, O>(
  query: SelectQueryBuilder<D, TB, O>,
  asked: { page: number; pageSize: number },
): Promise<{ rows: O[]; total: number }> {
  const rows = await query.limit(asked.pageSize).offset((asked.page - 1) * asked.pageSize).execute();
  const counted = await query
    .clearSelect()
    .clearOrderBy()
    .select((eb) => eb.fn.countAll<string>().as('total'))
    .executeTakeFirst();
  return { rows, total: Number((counted as { total?: string } | undefined)?.total ?? 0) };
}
