/**
 * Index of the first of `items` (sorted ascending by `key`) whose key is at least `value`;
 * `items.length` when there is none.
 */
export function firstAtLeast<T>(items: readonly T[], value: number, key: (item: T) => number): number {
  let low = 0;
  let high = items.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (key(items[mid] as T) < value) low = mid + 1;
    else high = mid;
  }
  return low;
}

export const itself = (value: number): number => value;

/** The numbers ascending without repeats: `values` itself when it already is (diffs' lines are). */
export function ascendingUnique(values: readonly number[]): readonly number[] {
  for (let i = 1; i < values.length; i++) {
    if ((values[i] as number) <= (values[i - 1] as number)) return [...new Set(values)].sort((a, b) => a - b);
  }
  return values;
}
