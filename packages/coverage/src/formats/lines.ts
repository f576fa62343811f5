import type { FormatName } from '../model/coverage.ts';
import { fail } from './shared.ts';

const MAX_LINE_CHARS = 1024 * 1024;

/** Splits streamed text into lines, tracking the line number for error positions. */
export class LineSplitter {
  private rest = '';
  lineNumber = 0;

  constructor(
    private readonly format: FormatName,
    private readonly onLine: (line: string, lineNumber: number) => void,
  ) {}

  write(text: string): void {
    const data = this.rest === '' ? text : this.rest + text;
    let start = 0;
    for (let newline = data.indexOf('\n'); newline !== -1; newline = data.indexOf('\n', start)) {
      const end = newline > start && data.charCodeAt(newline - 1) === 13 ? newline - 1 : newline;
      this.lineNumber++;
      this.onLine(data.slice(start, end), this.lineNumber);
      start = newline + 1;
    }
    this.rest = data.slice(start);
    if (this.rest.length > MAX_LINE_CHARS) {
      fail(this.format, 'too-large', 'a line longer than 1 MiB', { line: this.lineNumber + 1 });
    }
  }

  end(): void {
    if (this.rest !== '') {
      this.lineNumber++;
      const line = this.rest.endsWith('\r') ? this.rest.slice(0, -1) : this.rest;
      this.rest = '';
      this.onLine(line, this.lineNumber);
    }
  }
}
