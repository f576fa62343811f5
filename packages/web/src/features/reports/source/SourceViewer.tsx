import type { SourceView } from '@sextant/api';
import { memo, useEffect, useMemo, useRef } from 'react';
import { coverageTone, TONE_COLORS } from '../../../lib/grades.ts';
import { fill, useLocale, useTexts } from '../../../lib/i18n.tsx';
import { useSession } from '../../../lib/session.tsx';
import { type LineInfo, lineInfos } from './line-marks.ts';
import { sourceTexts } from './texts.ts';
import { grammarFor, type Token, tokenize } from './tokenize.ts';
import './source-view.css';

type MethodFigure = SourceView['methods'][number];
type Grades = { excellentGrade: number; passingGrade: number };

function MethodBadge({ method, grades }: { method: MethodFigure; grades: Grades }) {
  const t = useTexts(sourceTexts).method;
  const { formatPercent } = useLocale();
  const figure = (label: string, v: number | null) =>
    v === null ? null : (
      <span style={{ color: TONE_COLORS[coverageTone(v, grades)] }}>{`${label} ${formatPercent(v, 0)} `}</span>
    );
  const hover = fill(t.hover, {
    name: method.name,
    lines: formatPercent(method.lineCoverage),
    branches: formatPercent(method.branchCoverage),
  });
  return (
    <span title={hover}>
      {method.changed && <span className="method-changed">●</span>}
      {figure(t.line, method.lineCoverage)}
      {figure(t.branch, method.branchCoverage)}
      {method.lineCoverage === null && method.branchCoverage === null && (
        <span style={{ color: '#999' }}>{method.name}</span>
      )}
    </span>
  );
}

type LineProps = { n: number; tokens: Token[]; info: LineInfo; method?: MethodFigure; grades: Grades; target: boolean };

/** One source line; tokens are text children, so React escapes them. */
const SourceLine = memo(function SourceLine({ n, tokens, info, method, grades, target }: LineProps) {
  const classes = ['source-line', info.state, info.changed ? 'changed' : null, target ? 'target' : null];
  return (
    <div className={classes.filter(Boolean).join(' ')} data-line={n} title={info.title}>
      <span className="ln">{n}</span>
      <span className="method-fig">{method ? <MethodBadge method={method} grades={grades} /> : null}</span>
      <span className="code">
        {tokens.map((t, i) =>
          t.kind === 'plain' ? (
            t.text
          ) : (
            // biome-ignore lint/suspicious/noArrayIndexKey: a line's tokens never reorder
            <span key={i} className={`tok-${t.kind}`}>
              {t.text}
            </span>
          ),
        )}
      </span>
    </div>
  );
});

/** The file with coverage marks, changed-line markers and each method's figures at its first line. */
export function SourceViewer({ view, targetLine }: { view: SourceView; targetLine?: number }) {
  const { settings } = useSession();
  const t = useTexts(sourceTexts);
  const { formatNumber } = useLocale();
  const { excellentGrade, passingGrade } = settings;
  const grades = useMemo(() => ({ excellentGrade, passingGrade }), [excellentGrade, passingGrade]);
  const tokens = useMemo(() => tokenize(view.lines, grammarFor(view.language, view.path)), [view]);
  const infos = useMemo(() => lineInfos(view, { words: t.line, formatNumber }), [view, t.line, formatNumber]);
  const methodsByLine = useMemo(() => new Map(view.methods.map((m) => [m.startLine, m])), [view]);
  const box = useRef<HTMLElement>(null);

  useEffect(() => {
    if (!targetLine || !box.current) return;
    const row = box.current.querySelector(`[data-line="${targetLine}"]`);
    row?.scrollIntoView({ block: 'center' });
  }, [targetLine]);

  return (
    <section className="source-view" ref={box} aria-label={fill(t.sourceOf, { path: view.path })}>
      {view.lines.map((_, i) => (
        <SourceLine
          // biome-ignore lint/suspicious/noArrayIndexKey: lines are identified by their number
          key={i}
          n={i + 1}
          tokens={tokens[i] ?? []}
          info={infos[i] as LineInfo}
          method={methodsByLine.get(i + 1)}
          grades={grades}
          target={targetLine === i + 1}
        />
      ))}
    </section>
  );
}
