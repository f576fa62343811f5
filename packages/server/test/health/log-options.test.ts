import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { logOptions } from '../../src/log-options.ts';

// Issue 41: `npm start` on a terminal prints readable lines; anything else gets pino's JSON.
describe('log output', () => {
  it('is JSON when stdout is not a terminal', () => {
    expect(logOptions(false)).toBe(true);
  });

  it("is pino-pretty's on a terminal, a transport the server can load", () => {
    const options = logOptions(true);
    const target = typeof options === 'object' && options && 'transport' in options ? options.transport : undefined;
    expect(target).toMatchObject({ target: 'pino-pretty' });
    const resolve = createRequire(new URL('../../src/main.ts', import.meta.url)).resolve;
    expect(resolve('pino-pretty')).toMatch(/pino-pretty/);
  });
});
