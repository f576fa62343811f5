import type { FormatName } from '../model/coverage.ts';
import { fail } from './shared.ts';

export const MAX_JSON_DEPTH = 64;
const MAX_JSON_CHARS = 512 * 1024 * 1024;

/**
 * Collects a JSON document and parses it after checking its nesting depth without recursion,
 * so a hostile [[[[…]]]] fails with too-deep instead of overflowing the stack.
 */
export class JsonCollector {
  private readonly chunks: string[] = [];
  private length = 0;
  private depth = 0;
  private inString = false;
  private escaped = false;
  private line = 1;

  constructor(private readonly format: FormatName) {}

  write(text: string): void {
    this.length += text.length;
    if (this.length > MAX_JSON_CHARS) fail(this.format, 'too-large', 'JSON report larger than 512 MiB');
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === 92) this.escaped = true;
        else if (c === 34) this.inString = false;
      } else if (c === 34) this.inString = true;
      else if (c === 123 || c === 91) {
        if (++this.depth > MAX_JSON_DEPTH)
          fail(this.format, 'too-deep', `JSON nested deeper than ${MAX_JSON_DEPTH}`, { line: this.line });
      } else if (c === 125 || c === 93) this.depth--;
      else if (c === 10) this.line++;
    }
    this.chunks.push(text);
  }

  end(): unknown {
    const text = this.chunks.join('');
    this.chunks.length = 0;
    if (text.trim() === '') fail(this.format, 'empty-input', 'the report is empty');
    try {
      return JSON.parse(text);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      const truncated = this.depth > 0 || this.inString;
      return fail(
        this.format,
        truncated ? 'unexpected-eof' : 'malformed-json',
        truncated ? 'the JSON document ends early' : reason,
      );
    }
  }
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
