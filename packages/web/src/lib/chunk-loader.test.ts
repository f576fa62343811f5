import { describe, expect, it, vi } from 'vitest';
import { ChunkLoadError, loadChunk } from './chunk-loader.ts';

describe('loadChunk', () => {
  it('passes a loaded module through', async () => {
    await expect(loadChunk(async () => ({ default: 7 }))).resolves.toEqual({ default: 7 });
  });

  it('turns a failed import into a ChunkLoadError', async () => {
    await expect(loadChunk(() => Promise.reject(new TypeError('Failed to fetch')))).rejects.toBeInstanceOf(
      ChunkLoadError,
    );
  });

  it('gives up after the timeout', async () => {
    vi.useFakeTimers();
    try {
      const pending = loadChunk(() => new Promise(() => {}), 120_000);
      const settled = expect(pending).rejects.toThrow('did not load within 120 seconds');
      await vi.advanceTimersByTimeAsync(120_000);
      await settled;
    } finally {
      vi.useRealTimers();
    }
  });
});
