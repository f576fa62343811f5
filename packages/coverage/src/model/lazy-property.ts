/**
 * Gives `target` an own enumerable `key` whose value `make()` makes on the first read, or that an
 * assignment sets; either way it is an ordinary data property from then on, and `settled` hears
 * of the object it settled on. Being an own enumerable accessor until then, a spread copy, JSON
 * and structured clone see the value as usual (making it); copying the property descriptors
 * copies the laziness, and the copy settles on its own.
 */
export function lazyProperty<T extends object, K extends keyof T>(
  target: T,
  key: K,
  make: () => T[K],
  settled?: (on: T) => void,
): void {
  const settle = (on: T, value: T[K]) => {
    settled?.(on);
    Object.defineProperty(on, key, { value, writable: true, enumerable: true, configurable: true });
  };
  Object.defineProperty(target, key, {
    enumerable: true,
    configurable: true,
    get(this: T) {
      const value = make();
      settle(this, value);
      return value;
    },
    set(this: T, value: T[K]) {
      settle(this, value);
    },
  });
}

/**
 * A number read back from a Float64Array, as a small integer where it is one: stored into an
 * object as a double, V8 gives every object's field its own 16-byte heap box.
 */
export const unboxed = (value: number): number => (value <= 0x3fffffff ? value | 0 : value);
