import { jvmDialectOfPath, jvmMethodDisplayName, type SourceView } from '@sextant/api';
import { type FocusEvent, type MouseEvent, memo, useEffect, useMemo, useRef, useState } from 'react';
import { coverageTone, TONE_COLORS } from '../../../lib/grades.ts';
import { fill, useLocale, useTexts } from '../../../lib/i18n.tsx';
import { useJvmWords } from '../../../lib/jvm-words.ts';
import { useSession } from '../../../lib/session.tsx';
import { type JumpKind, jumpTarget } from './line-jumps.ts';
import { type LineInfo, lineInfos } from './line-marks.ts';
import { sourceTexts } from './texts.ts';
import { grammarFor, type Token, tokenize } from './tokenize.ts';
import './source-view.css';

/** A method with the name its source gives it (`summary(int): String` for JaCoCo's `summary(I)Ljava/lang/String;`). */
type MethodFigure = SourceView['methods'][number] & { displayName: string };
type Grades = { excellentGrade: number; passingGrade: number };

function MethodBadge({ method, grades }: { method: MethodFigure; grades: Grades }) {
  const t = useTexts(sourceTexts).method;
  const { formatPercent } = useLocale();
  const figure = (label: string, v: number | null) =>
    v === null ? null : (
      <span style={{ color: TONE_COLORS[coverageTone(v, grades)] }}>{`${label} ${formatPercent(v, 0)} `}</span>
    );
  const hover = fill(t.hover, {
    name: method.displayName,
    lines: formatPercent(method.lineCoverage),
    branches: formatPercent(method.branchCoverage),
  });
  return (
    <span title={hover}>
      {method.changed && <span className="method-changed">●</span>}
      {figure(t.line, method.lineCoverage)}
      {figure(t.branch, method.branchCoverage)}
      {method.lineCoverage === null && method.branchCoverage === null && (
        <span style={{ color: '#999' }}>{method.displayName}</span>
      )}
    </span>
  );
}

type LineProps = {
  n: number;
  tokens: Token[];
  info: LineInfo;
  hits: string;
  method?: MethodFigure;
  grades: Grades;
  target: boolean;
};

/** One source line; tokens are text children, so React escapes them. Its number links to it (#L42). */
const SourceLine = memo(function SourceLine({ n, tokens, info, hits, method, grades, target }: LineProps) {
  const classes = ['source-line', info.state, info.changed ? 'changed' : null, target ? 'target' : null];
  return (
    <div className={classes.filter(Boolean).join(' ')} data-line={n} id={`L${n}`}>
      <a className="ln" href={`#L${n}`}>
        {n}
      </a>
      <span className="hits">{hits}</span>
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

/** Keys that jump (issue 37): n / p to the next / previous uncovered block, N / P the same for changed lines. */
const JUMP_KEYS: Record<string, [JumpKind, 1 | -1]> = {
  n: ['uncovered', 1],
  p: ['uncovered', -1],
  N: ['changed', 1],
  P: ['changed', -1],
};

type Props = {
  view: SourceView;
  /** The line the URL names (a permalink or a jump): scrolled to and outlined. */
  targetLine?: number;
  /** Called with the line a click on its number or a jump key chose. */
  onLine?: (line: number) => void;
};

/** The file with coverage marks, hit counts, changed-line markers and each method's figures at its first line. */
export function SourceViewer({ view, targetLine, onLine }: Props) {
  const { settings } = useSession();
  const t = useTexts(sourceTexts);
  const { formatNumber } = useLocale();
  const { excellentGrade, passingGrade } = settings;
  const grades = useMemo(() => ({ excellentGrade, passingGrade }), [excellentGrade, passingGrade]);
  const tokens = useMemo(() => tokenize(view.lines, grammarFor(view.language, view.path)), [view]);
  const infos = useMemo(() => lineInfos(view, { words: t.line, formatNumber }), [view, t.line, formatNumber]);
  const words = useJvmWords();
  const methodsByLine = useMemo(() => {
    const dialect = jvmDialectOfPath(view.path);
    const named = view.methods.map((m) => {
      const siblings = view.methods.filter((o) => o.className === m.className).map((o) => o.name);
      const source = dialect
        ? jvmMethodDisplayName(m.name, { className: m.className, dialect, siblings, words })
        : null;
      return { ...m, displayName: source ?? m.name };
    });
    return new Map(named.map((m) => [m.startLine, m]));
  }, [view, words]);
  const box = useRef<HTMLElement>(null);
  const [hover, setHover] = useState<{ line: number; top: number } | null>(null);

  useEffect(() => {
    if (!targetLine || !box.current) return;
    const row = box.current.querySelector(`[data-line="${targetLine}"]`);
    row?.scrollIntoView({ block: 'center' });
  }, [targetLine]);

  useEffect(() => {
    if (!onLine) return;
    const onKey = (event: KeyboardEvent) => {
      const jump = JUMP_KEYS[event.key];
      const target = event.target as HTMLElement | null;
      if (!jump || event.ctrlKey || event.metaKey || event.altKey) return;
      if (target?.closest('input, textarea, select, [contenteditable="true"]')) return;
      const next = jumpTarget(infos, targetLine ?? 0, jump[0], jump[1]);
      if (next !== null) {
        event.preventDefault();
        onLine(next);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [infos, targetLine, onLine]);

  // One tooltip for the whole file, placed at the hovered line (a tooltip component per line would
  // cost thousands of them on a long file).
  const showTooltip = (event: MouseEvent<HTMLElement> | FocusEvent<HTMLElement>) => {
    const row = (event.target as HTMLElement).closest<HTMLElement>('.source-line');
    const line = Number(row?.dataset.line);
    if (!row || !box.current || !infos[line - 1]?.title) return setHover(null);
    setHover({ line, top: row.offsetTop - box.current.scrollTop });
  };
  const onClick = (event: MouseEvent<HTMLElement>) => {
    const link = (event.target as HTMLElement).closest<HTMLAnchorElement>('a.ln');
    if (!link || !onLine) return;
    event.preventDefault();
    onLine(Number(link.textContent));
  };
  const hoverText = hover ? infos[hover.line - 1]?.title : undefined;

  return (
    <div className="source-frame">
      {/* biome-ignore lint/a11y/useKeyWithClickEvents: the clicks handled are on the line-number links, which Enter clicks too */}
      <section
        className="source-view"
        ref={box}
        aria-label={fill(t.sourceOf, { path: view.path })}
        onMouseOver={showTooltip}
        onFocus={showTooltip}
        onMouseLeave={() => setHover(null)}
        onScroll={() => setHover(null)}
        onClick={onClick}
      >
        {view.lines.map((_, i) => {
          const info = infos[i] as LineInfo;
          return (
            <SourceLine
              // biome-ignore lint/suspicious/noArrayIndexKey: lines are identified by their number
              key={i}
              n={i + 1}
              tokens={tokens[i] ?? []}
              info={info}
              hits={info.hits === undefined ? '' : formatNumber(info.hits)}
              method={methodsByLine.get(i + 1)}
              grades={grades}
              target={targetLine === i + 1}
            />
          );
        })}
      </section>
      {hover && hoverText && (
        <div className="line-tooltip" role="tooltip" style={{ top: hover.top - 30 }}>
          {fill(t.lineTooltip, { line: hover.line, text: hoverText })}
        </div>
      )}
    </div>
  );
}
