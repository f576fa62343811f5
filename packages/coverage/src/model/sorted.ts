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
