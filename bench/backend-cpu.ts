import { readFileSync } from 'node:fs';
import type pg from 'pg';

/** CPU milliseconds (user + system) each PostgreSQL backend serving this database has used so far (/proc). */
export async function backendCpuMs(pool: pg.Pool): Promise<Map<number, number> | null> {
  const { rows } = await pool.query<{ pid: number }>(
    'select pid from pg_stat_activity where datname = current_database()',
  );
  const used = new Map<number, number>();
  try {
    for (const { pid } of rows) {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
      used.set(pid, (Number(fields[11]) + Number(fields[12])) * 10); // USER_HZ is 100 on Linux
    }
  } catch {
    return null; // another machine, or no access to the server's processes
  }
  return used;
}

/** What the backends alive at the end used since `before` (one opened meanwhile: all it used). */
export function backendCpuSince(before: Map<number, number>, after: Map<number, number>): number {
  let ms = 0;
  for (const [pid, used] of after) ms += used - (before.get(pid) ?? 0);
  return ms;
}
