import type { LineMark, SourceView } from '@sextant/api';
import { fill } from '../../../lib/i18n.tsx';
import { type LineWords, sourceTexts } from './texts.ts';

export type LineState = 'covered' | 'uncovered' | 'partial' | 'carried' | null;
export type LineInfo = {
  state: LineState;
  title: string | undefined;
  changed: boolean;
  /** Times the line ran, as the report recorded it; undefined for a line the report does not measure. */
  hits?: number;
};

/** A line's mark: not hit is uncovered; hit with some branches missed is partly covered. */
export function lineState(mark: LineMark | undefined): LineState {
  if (!mark) return null;
  if (mark.hits === 0) return 'uncovered';
  if (mark.branchesTotal > 0 && mark.branchesCovered < mark.branchesTotal) return 'partial';
  return 'covered';
}

type Format = { words: LineWords; formatNumber: (n: number) => string };

function describe(mark: LineMark, { words, formatNumber }: Format): string {
  const hits =
    mark.hits === 0
      ? words.notRun
      : fill(mark.hits === 1 ? words.runOnce : words.runMany, { hits: formatNumber(mark.hits) });
  if (mark.branchesTotal === 0) return hits;
  return fill(words.withBranches, { hits, covered: mark.branchesCovered, total: mark.branchesTotal });
}

const english: Format = { words: sourceTexts.en.line, formatNumber: (n) => n.toLocaleString('en-GB') };

/** Per line (1-based index), the state, its hover text (in the given words) and whether the line changed. */
export function lineInfos(view: SourceView, format: Format = english): LineInfo[] {
  const infos: LineInfo[] = view.lines.map(() => ({ state: null, title: undefined, changed: false }));
  for (const mark of view.marks) {
    const info = infos[mark.line - 1];
    if (info) {
      info.state = lineState(mark);
      info.title = describe(mark, format);
      info.hits = mark.hits;
    }
  }
  for (const line of view.changedLines) {
    const info = infos[line - 1];
    if (info) info.changed = true;
  }
  // Issue 38: not run on this build, covered on an older one and unchanged since; shown as its own state.
  for (const line of view.carriedLines) {
    const info = infos[line - 1];
    if (info?.state === 'uncovered') {
      info.state = 'carried';
      info.title = fill(format.words.carried, { text: info.title ?? '' });
    }
  }
  return infos;
}
