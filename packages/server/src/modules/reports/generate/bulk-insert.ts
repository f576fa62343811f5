import type pg from 'pg';

/** Postgres element types the writer sends; an array column travels as text (`{1,2}`) and is cast. */
export type ColumnType = 'int8' | 'int4' | 'text' | 'bool' | 'uuid' | 'int4[]' | 'int8[]';
export type Column = { name: string; type: ColumnType };

/** Rows as one array per column (column-major: no object per row, and what unnest takes). */
export type ColumnData = { columns: readonly Column[]; values: unknown[][]; rowCount: number };

export const CHUNK_ROWS = 10_000;

/** `{1,2,3}`: an int array literal, sent as one text element and cast by the server. */
export function intArrayLiteral(values: readonly number[]): string {
  return `{${values.join(',')}}`;
}

/**
 * One multi-row `INSERT ... SELECT FROM unnest(...)` per chunk: the driver sends each column as a
 * single array parameter, so the statement and its parse cost do not grow with the row count
 * (an ORM insert of objects builds one placeholder per cell). `fixed` values are the same for every row.
 */
export async function insertColumns(
  client: Pick<pg.ClientBase, 'query'>,
  table: string,
  fixed: readonly { column: Column; value: unknown }[],
  data: ColumnData,
  chunkRows = CHUNK_ROWS,
): Promise<void> {
  if (data.rowCount === 0) return;
  const names = [...fixed.map((f) => f.column.name), ...data.columns.map((c) => c.name)];
  const fixedSelect = fixed.map((f, i) => `$${i + 1}::${f.column.type}`);
  const unnestArgs = data.columns.map((c, i) => `$${fixed.length + i + 1}::${elementType(c.type)}[]`);
  const aliases = data.columns.map((_, i) => `c${i}`);
  const unnestSelect = data.columns.map((c, i) => (c.type.endsWith('[]') ? `u.c${i}::${c.type}` : `u.c${i}`));
  const text =
    `insert into ${table} (${names.join(', ')}) ` +
    `select ${[...fixedSelect, ...unnestSelect].join(', ')} ` +
    `from unnest(${unnestArgs.join(', ')}) as u(${aliases.join(', ')})`;
  const fixedValues = fixed.map((f) => f.value);
  for (let start = 0; start < data.rowCount; start += chunkRows) {
    const end = Math.min(start + chunkRows, data.rowCount);
    const chunk = data.values.map((column) =>
      start === 0 && end === data.rowCount ? column : column.slice(start, end),
    );
    await client.query(text, [...fixedValues, ...chunk]);
  }
}

function elementType(type: ColumnType): string {
  return type.endsWith('[]') ? 'text' : type;
}
