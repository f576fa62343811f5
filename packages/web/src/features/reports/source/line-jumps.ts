import type { LineInfo } from './line-marks.ts';

export type JumpKind = 'uncovered' | 'changed';

const matches = (info: LineInfo | undefined, kind: JumpKind) =>
  !!info &&
  (kind === 'changed'
    ? info.changed
    : info.state === 'uncovered' || info.state === 'partial' || info.state === 'carried');

/**
 * The first line (1-based) of the next (or previous) run of uncovered or changed lines from `from`
 * (0: before the first line), or null when there is none that way. A run of such lines is one stop,
 * as a reviewer reads a block, not line by line.
 */
export function jumpTarget(infos: readonly LineInfo[], from: number, kind: JumpKind, direction: 1 | -1): number | null {
  const startsRun = (line: number) => matches(infos[line - 1], kind) && !matches(infos[line - 2], kind);
  for (let line = from + direction; line >= 1 && line <= infos.length; line += direction) {
    if (startsRun(line)) return line;
  }
  return null;
}

/** `#L42` → 42; anything else null. */
export function lineOfHash(hash: string): number | null {
  const match = /^#L(\d{1,7})$/.exec(hash);
  return match ? Number(match[1]) : null;
}
