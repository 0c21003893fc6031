/**
 * A look-up by key that concurrent callers share: every key asked in the same event-loop turn is
 * answered by ONE query (the database is still asked on every call, so nothing goes stale), so
 * under load one round trip serves many requests instead of one each.
 */
export function createSharedLookup<K, V>(load: (keys: K[]) => Promise<Map<K, V>>) {
  let waiting: Array<{ key: K; resolve: (value: V | undefined) => void; reject: (error: unknown) => void }> = [];

  async function flush() {
    const batch = waiting;
    waiting = [];
    try {
      const found = await load([...new Set(batch.map((w) => w.key))]);
      for (const w of batch) w.resolve(found.get(w.key));
    } catch (error) {
      for (const w of batch) w.reject(error);
    }
  }

  return (key: K): Promise<V | undefined> =>
    new Promise((resolve, reject) => {
      waiting.push({ key, resolve, reject });
      if (waiting.length === 1) setImmediate(flush);
    });
}
