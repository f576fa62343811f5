import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { translateFieldMessage } from './field-messages.ts';

describe('server field messages in Chinese', () => {
  it('translates known sentences and sized limits, and leaves English and unknown ones alone', () => {
    expect(translateFieldMessage('Please choose a team.', 'zh')).toBe('请选择团队。');
    expect(translateFieldMessage('At most 256 characters.', 'zh')).toBe('最多 256 个字符。');
    expect(translateFieldMessage('Please choose a team.', 'en')).toBe('Please choose a team.');
    expect(translateFieldMessage('Something new.', 'zh')).toBe('Something new.');
  });

  it('knows every sentence the API schemas write', () => {
    const dir = join(import.meta.dirname, '../../../api/src');
    const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    const sentences = new Set<string>();
    for (const file of files) {
      for (const match of readFileSync(join(dir, file), 'utf8').matchAll(/'([A-Z][^']{3,}\.)'/g)) {
        sentences.add((match[1] as string).replaceAll('\\\\', '\\'));
      }
    }
    expect(sentences.size).toBeGreaterThan(20);
    for (const sentence of sentences) expect(translateFieldMessage(sentence, 'zh'), sentence).not.toBe(sentence);
  });
});
