// A JaCoCo-shaped coverage model made in memory: `files` files of two classes (a class and its inner
// class) with `methods` methods each and 40 lines, deterministic pseudo-random hits. For benches that
// need a report's rows, not a parse (bench/api-me.ts writes one while it measures).
import type { Counters, Coverage, FileCoverage } from '../../packages/coverage/src/index.ts';

const counter = (covered: number, total: number) => ({ covered, missed: total - covered });

function counters(seed: number, lines: number): Counters {
  const covered = (seed * 7919) % (lines + 1);
  return {
    instruction: counter(covered * 3, lines * 3),
    branch: counter(seed % 3, 2 + (seed % 3)),
    line: counter(covered, lines),
    complexity: counter(seed % 2, 2),
    method: counter(covered > 0 ? 1 : 0, 1),
    class: null,
  };
}

export function syntheticCoverage(files: number, methods: number): Coverage {
  const all: FileCoverage[] = [];
  for (let f = 0; f < files; f++) {
    const name = `com/example/p${f % 50}/Class${f}`;
    const classes = [name, `${name}$Inner`].map((cls, c) => ({
      name: cls,
      counters: { ...counters(f + c, 20), class: counter(1, 1) },
      methods: Array.from({ length: methods }, (_, m) => ({
        name: `method${m}`,
        signature: '(I)V',
        startLine: c * 20 + m * 2 + 1,
        endLine: c * 20 + m * 2 + 2,
        counters: counters(f + c + m, 2),
      })),
    }));
    all.push({
      path: `src/main/java/${name}.java`,
      language: 'java',
      lines: Array.from({ length: 40 }, (_, i) => ({
        line: i + 1,
        hits: (f + i) % 3,
        branchesCovered: 0,
        branchesTotal: 0,
        instructionsCovered: 3,
        instructionsMissed: 0,
      })),
      classes,
      counters: counters(f, 40),
    });
  }
  return { format: 'jacoco', files: all, counters: counters(1, files * 40) };
}
