/** One page of a list, as the service answers it. */
export interface PageOf<T> {
  data: T[];
  metadata: { totalPages: number };
}

/**
 * A list call: `await` it for the first page as the service answered it, or `for await` over it for
 * every item of every page, fetched one page at a time as the loop needs them (Stripe's
 * auto-paging). Pages are numbered: items created while the loop runs can shift a page, so for an
 * exact export filter on a closed date range.
 */
export interface PagedList<T, P extends PageOf<T> = PageOf<T>> extends PromiseLike<P>, AsyncIterable<T> {
  /** Every item of every page, in an array (bounded lists only). */
  toArray(): Promise<T[]>;
}

/** A PagedList over `fetchPage(n)`, starting at page `first`. */
export function pagedList<T, P extends PageOf<T>>(fetchPage: (page: number) => Promise<P>, first = 1): PagedList<T, P> {
  let firstPage: Promise<P> | undefined;
  const pageOne = () => (firstPage ??= fetchPage(first));
  async function* items(): AsyncGenerator<T, void, undefined> {
    for (let n = first; ; n += 1) {
      const page = n === first ? await pageOne() : await fetchPage(n);
      yield* page.data;
      if (page.data.length === 0 || n >= page.metadata.totalPages) return;
    }
  }
  return {
    then: (onFulfilled, onRejected) => pageOne().then(onFulfilled, onRejected),
    [Symbol.asyncIterator]: () => items(),
    async toArray() {
      const all: T[] = [];
      for await (const item of items()) all.push(item);
      return all;
    },
  };
}
