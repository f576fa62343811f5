import { CoverageError } from '../errors.ts';
import type { ExecClass, ExecData } from '../formats/jacoco-exec.ts';

/**
 * Merges execution data as JaCoCo's `ExecutionDataStore` (and `jacococli merge`) does: entries of
 * one class id become one, a probe set when any run set it. The class id is the CRC64 of the class
 * file, so the same id under another name, or with another probe count, is data of a different
 * class: refused (JaCoCo: "Different class names" / "Incompatible execution data").
 * Classes keep the order they first appear in; sessions are all kept.
 */
export function mergeExecData(runs: readonly ExecData[]): ExecData {
  const byId = new Map<string, ExecClass>();
  const sessions = runs.flatMap((run) => run.sessions);
  for (const run of runs) {
    for (const entry of run.classes) {
      const known = byId.get(entry.id);
      if (!known) {
        byId.set(entry.id, { id: entry.id, name: entry.name, probes: [...entry.probes] });
        continue;
      }
      if (known.name !== entry.name) {
        throw new CoverageError(
          'incompatible-exec-data',
          `class id ${entry.id} names ${known.name} in one run and ${entry.name} in another`,
          { format: 'jacoco' },
        );
      }
      if (known.probes.length !== entry.probes.length) {
        throw new CoverageError(
          'incompatible-exec-data',
          `${entry.name} (class id ${entry.id}) has ${known.probes.length} probes in one run and ${entry.probes.length} in another`,
          { format: 'jacoco' },
        );
      }
      for (let i = 0; i < entry.probes.length; i++) if (entry.probes[i]) known.probes[i] = true;
    }
  }
  return { sessions, classes: [...byId.values()] };
}

/**
 * The class ids of the execution data that the class files of the commit do not have: data of
 * another build of a class (same name, other id) cannot be turned into that commit's figures.
 * `classIds` maps a class name to the id of its class file at the commit.
 */
export function foreignExecClasses(data: ExecData, classIds: ReadonlyMap<string, string>): ExecClass[] {
  return data.classes.filter((c) => {
    const own = classIds.get(c.name);
    return own !== undefined && own !== c.id;
  });
}
