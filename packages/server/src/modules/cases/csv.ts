/** A data row of a CSV file with the line it starts on (1-based). */
export type CsvRow = { line: number; cells: string[] };

export class CsvError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * RFC 4180: comma-separated, fields optionally in double quotes ("" inside quotes is one quote; quoted
 * fields may span lines), CRLF or LF line ends, a leading byte-order mark ignored. Blank lines are skipped.
 */
export function parseCsv(text: string): CsvRow[] {
  const rows: CsvRow[] = [];
  let line = 1;
  let cells: string[] = [];
  let cell = '';
  let rowLine = 1;
  let quoted = false;
  let afterQuote = false;
  const endRow = () => {
    cells.push(cell);
    if (cells.length > 1 || cells[0] !== '') rows.push({ line: rowLine, cells });
    cells = [];
    cell = '';
    afterQuote = false;
  };
  const input = text.startsWith('\uFEFF') ? text.slice(1) : text;
  for (let i = 0; i < input.length; i++) {
    const ch = input[i];
    if (quoted) {
      if (ch === '"') {
        if (input[i + 1] === '"') {
          cell += '"';
          i++;
        } else {
          quoted = false;
          afterQuote = true;
        }
      } else {
        if (ch === '\n') line++;
        cell += ch;
      }
      continue;
    }
    if (ch === ',') {
      cells.push(cell);
      cell = '';
      afterQuote = false;
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && input[i + 1] === '\n') i++;
      endRow();
      line++;
      rowLine = line;
    } else if (afterQuote) {
      throw new CsvError(line, `Line ${line}: unexpected text after a closing quote.`);
    } else if (ch === '"') {
      if (cell !== '') throw new CsvError(line, `Line ${line}: a quote inside an unquoted field.`);
      quoted = true;
    } else {
      cell += ch;
    }
  }
  if (quoted) throw new CsvError(rowLine, `Line ${rowLine}: a quoted field is not closed.`);
  endRow();
  return rows;
}
