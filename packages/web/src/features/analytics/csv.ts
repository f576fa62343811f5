/** A CSV document (RFC 4180): fields with a comma, quote or line break are quoted, quotes doubled. */
export function toCsv(header: readonly string[], rows: readonly (readonly (string | number | null)[])[]): string {
  const field = (value: string | number | null) => {
    if (value === null) return '';
    const text = String(value);
    // A leading = + - @ would make a spreadsheet run the cell as a formula: keep it text.
    const safe = /^[=+\-@\t\r]/.test(text) && typeof value === 'string' ? `'${text}` : text;
    return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
  };
  return `${[header, ...rows].map((row) => row.map(field).join(',')).join('\r\n')}\r\n`;
}

/** Offers a file to the browser (a Blob URL, no markup: Trusted Types allow it). */
export function download(name: string, content: Blob | string, type = 'text/csv;charset=utf-8'): void {
  const blob = typeof content === 'string' ? new Blob(['\ufeff', content], { type }) : content;
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
