import type { SpanRow } from './repository.ts';

type Waiting = { rows: SpanRow[]; resolve: () => void; reject: (error: unknown) => void };

export type SpanWriterOptions = {
  /** Rows one statement carries at most (several waiting exports are joined up to it, never split). */
  maxRows: number;
  /** Statements in progress at once: while they run, newly arrived exports wait and are joined. */
  maxInFlight: number;
};

export const SPAN_WRITER_DEFAULTS: SpanWriterOptions = { maxRows: 5000, maxInFlight: 2 };

/** The order rows are written in: two statements holding the same spans then lock them in the same order. */
const byKey = (a: SpanRow, b: SpanRow) =>
  a.traceId < b.traceId ? -1 : a.traceId > b.traceId ? 1 : a.spanId < b.spanId ? -1 : a.spanId > b.spanId ? 1 : 0;

/**
 * Joins the rows of exports arriving together into one bulk write (issue 36; a COPY on PostgreSQL,
 * an unnest insert on PGlite, repository.ts): a statement costs the database and the driver far
 * more per row at 100 rows than at 1,000 (bench/otlp-ingest.ts, bench/span-write.ts). No
 * export waits for a timer: the first is written on the next turn of the event loop, and those that
 * arrive while statements are in progress are joined into the next one. Each export's promise
 * settles when its own rows are committed (nothing answered 200 is lost). When a joined statement
 * fails, each of its exports is written alone, so an export the database refuses fails by itself and
 * the others still succeed.
 */
export class SpanWriter {
  private waiting: Waiting[] = [];
  private inFlight = 0;
  private scheduled = false;
  /** Statements written so far (joined or alone), for tests and benches to see the joining. */
  statements = 0;

  constructor(
    private readonly insert: (rows: SpanRow[]) => Promise<number>,
    private readonly options: SpanWriterOptions = SPAN_WRITER_DEFAULTS,
  ) {}

  /** Resolves once these rows are stored; rejects with the database's error for them. */
  write(rows: SpanRow[]): Promise<void> {
    if (rows.length === 0) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.waiting.push({ rows, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => {
          this.scheduled = false;
          this.drain();
        });
      }
    });
  }

  private drain(): void {
    while (this.inFlight < this.options.maxInFlight && this.waiting.length > 0) {
      const group: Waiting[] = [];
      let rows = 0;
      while (this.waiting.length > 0) {
        const next = this.waiting[0] as Waiting;
        if (group.length > 0 && rows + next.rows.length > this.options.maxRows) break;
        group.push(next);
        rows += next.rows.length;
        this.waiting.shift();
      }
      this.inFlight++;
      void this.flush(group).finally(() => {
        this.inFlight--;
        this.drain();
      });
    }
  }

  private async flush(group: Waiting[]): Promise<void> {
    try {
      await this.store(group.length === 1 ? (group[0] as Waiting).rows : group.flatMap((w) => w.rows));
      for (const w of group) w.resolve();
    } catch (error) {
      if (group.length === 1) {
        group[0]?.reject(error);
        return;
      }
      for (const w of group) {
        try {
          await this.store(w.rows);
          w.resolve();
        } catch (own) {
          w.reject(own);
        }
      }
    }
  }

  private async store(rows: SpanRow[]): Promise<void> {
    this.statements++;
    await this.insert([...rows].sort(byKey));
  }
}
