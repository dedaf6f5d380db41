// Bounded insertion-ordered maps and sets: the oldest entries let go in batches, not one by one.

/**
 * Once `m` holds more than `max` plus an eighth of it, deletes its oldest entries (insertion order) down to `max`; so it
 * always keeps at least the latest `max` and never more than 9/8 of it. Letting go one entry each time it passes `max`
 * (`m.delete(m.keys().next().value)`) is ten times slower at a few thousand entries: V8 leaves a deleted entry in the
 * table until it rebuilds it, and each new iterator walks over every one deleted before it.
 */
export function trimOldest<K>(m: Map<K, unknown> | Set<K>, max: number): void {
  if (m.size <= max + (max >> 3)) return;
  let n = m.size - max;
  for (const k of m.keys()) {
    m.delete(k);
    if (--n === 0) break;
  }
}
