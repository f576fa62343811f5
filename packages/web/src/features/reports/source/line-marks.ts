import type { LineMark, SourceView } from '@sextant/api';

export type LineState = 'covered' | 'uncovered' | 'partial' | null;
export type LineInfo = { state: LineState; title: string | undefined; changed: boolean };

/** A line's mark: not hit is uncovered; hit with some branches missed is partly covered. */
export function lineState(mark: LineMark | undefined): LineState {
  if (!mark) return null;
  if (mark.hits === 0) return 'uncovered';
  if (mark.branchesTotal > 0 && mark.branchesCovered < mark.branchesTotal) return 'partial';
  return 'covered';
}

function describe(mark: LineMark): string {
  const hits = mark.hits === 0 ? 'Not run' : `Run ${mark.hits.toLocaleString()} time${mark.hits === 1 ? '' : 's'}`;
  if (mark.branchesTotal === 0) return hits;
  return `${hits}; ${mark.branchesCovered} of ${mark.branchesTotal} branches`;
}

/** Per line (1-based index), the state, its hover text and whether the line changed. */
export function lineInfos(view: SourceView): LineInfo[] {
  const infos: LineInfo[] = view.lines.map(() => ({ state: null, title: undefined, changed: false }));
  for (const mark of view.marks) {
    const info = infos[mark.line - 1];
    if (info) {
      info.state = lineState(mark);
      info.title = describe(mark);
    }
  }
  for (const line of view.changedLines) {
    const info = infos[line - 1];
    if (info) info.changed = true;
  }
  return infos;
}
