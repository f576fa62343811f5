import { describe, expect, it } from 'vitest';
import { languageOf } from './shared.ts';

describe('languageOf', () => {
  it('names the language by the extension, in any case', () => {
    expect(languageOf('src/main/java/a/B.java')).toBe('java');
    expect(languageOf('lib/chart.MJS')).toBe('javascript');
    expect(languageOf('include/x.hpp')).toBe('cpp');
    expect(languageOf('types/index.d.ts')).toBe('typescript');
  });

  it('gives null for no extension or an unknown one, including the names an object inherits', () => {
    expect(languageOf('Makefile')).toBeNull();
    expect(languageOf('notes.txt')).toBeNull();
    expect(languageOf('odd.constructor')).toBeNull();
    expect(languageOf('odd.toString')).toBeNull();
    expect(languageOf('dir.js/Makefile')).toBeNull();
    expect(languageOf('trailing.')).toBeNull();
    expect(languageOf('a.js-b')).toBeNull();
  });
});
