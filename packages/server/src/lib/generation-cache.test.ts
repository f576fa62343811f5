import { afterEach, describe, expect, it, vi } from 'vitest';
import { GenerationCache } from './generation-cache.ts';

describe('GenerationCache', () => {
  afterEach(() => vi.useRealTimers());

  /** A cache over a generation the test sets, and a read counting its calls. */
  const setup = (options: ConstructorParameters<typeof GenerationCache>[1]) => {
    const state = { generation: 1, reads: 0 };
    const cache = new GenerationCache(async () => state.generation, options);
    const read = async () => `answer ${++state.reads}`;
    return { state, cache, read };
  };

  it('gives a kept answer at the same generation, and reads again at another', async () => {
    const { state, cache, read } = setup({});
    expect(await cache.get('k', read)).toBe('answer 1');
    expect(await cache.get('k', read)).toBe('answer 1');
    expect(await cache.get('other', read)).toBe('answer 2');
    state.generation = 2;
    expect(await cache.get('k', read)).toBe('answer 3');
  });

  it('past its time, reads again; with refreshStale gives the old answer while one read replaces it', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const plain = setup({ ttlMs: 1000 });
    expect(await plain.cache.get('k', plain.read)).toBe('answer 1');
    vi.setSystemTime(Date.now() + 1500);
    expect(await plain.cache.get('k', plain.read)).toBe('answer 2');

    const { state, cache } = setup({ ttlMs: 1000, refreshStale: true });
    let finish: (v: string) => void = () => {};
    const slow = () => {
      state.reads++;
      return new Promise<string>((resolve) => {
        finish = resolve;
      });
    };
    expect(await cache.get('k', async () => 'old')).toBe('old');
    vi.setSystemTime(Date.now() + 1500);
    // Stale: the old answer, and one read started however many ask meanwhile.
    expect(await cache.get('k', slow)).toBe('old');
    expect(await cache.get('k', slow)).toBe('old');
    expect(state.reads).toBe(1);
    finish('new');
    await vi.waitFor(async () => expect(await cache.get('k', slow)).toBe('new'));
    expect(state.reads).toBe(1);
    // A changed generation is never answered with a kept answer, stale or not.
    state.generation = 2;
    expect(await cache.get('k', async () => 'after a write')).toBe('after a write');
  });

  it('forgets a failed read', async () => {
    const { cache, read } = setup({});
    await expect(cache.get('k', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await cache.get('k', read)).toBe('answer 1');
  });
});
