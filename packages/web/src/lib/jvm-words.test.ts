import type { JvmNameWords } from '@sextant/api';
import { describe, expect, it } from 'vitest';
import { methodLabel } from './jvm-words.ts';

const words: JvmNameWords = {
  staticInitializer: 'static initializer',
  lambdaIn: (method) => `lambda in ${method}`,
  anonymous: (index) => `anonymous #${index}`,
};
const java = 'src/main/java/demo/inventory/Reservations.java';

describe('methodLabel', () => {
  it('names a JVM method as its Java source does, with its class', () => {
    expect(
      methodLabel(
        {
          className: 'demo/inventory/Reservations',
          method: 'heldFor(Ljava/lang/String;Ljava/lang/String;)I',
          filePath: java,
        },
        words,
      ),
    ).toBe('Reservations.heldFor(String, String): int');
    expect(
      methodLabel(
        { className: 'demo/inventory/Reservations', method: '<init>(Ldemo/inventory/Stock;)V', filePath: java },
        words,
      ),
    ).toBe('Reservations(Stock)');
  });

  it('leaves other languages as the report names them', () => {
    expect(methodLabel({ className: null, method: 'applyCoupon', filePath: 'src/coupons.ts' }, words)).toBe(
      'applyCoupon',
    );
    expect(methodLabel({ className: 'Cart', method: 'add', filePath: 'src/cart.js' }, words)).toBe('Cart.add');
  });
});
