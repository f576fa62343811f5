import { Button, Typography } from 'antd';
import { type UIEvent, useMemo, useState } from 'react';
import { fill, useTexts } from '../../../lib/i18n.tsx';
import { traceTexts } from '../texts.ts';
import { formatMs } from '../url.ts';
import { type PlacedSpan, type TraceModel, visibleRows } from './waterfall-model.ts';

const ROW_HEIGHT = 26;
/** Rows drawn past the visible window, so a quick scroll does not show blanks. */
const OVERSCAN = 12;
const LABEL_WIDTH = 340;

type Props = {
  model: TraceModel;
  collapsed: ReadonlySet<string>;
  onToggle: (spanId: string) => void;
  selected: string | null;
  onSelect: (spanId: string) => void;
  height: number;
};

/**
 * The waterfall: one row per visible span, only the rows in view are in the DOM (a 10,000-span
 * trace keeps a few dozen elements), bars placed on the trace's time axis, the critical path marked.
 */
export function Waterfall({ model, collapsed, onToggle, selected, onSelect, height }: Props) {
  const rows = useMemo(() => visibleRows(model, collapsed), [model, collapsed]);
  const [scrollTop, setScrollTop] = useState(0);
  const first = Math.max(0, Math.floor(scrollTop / ROW_HEIGHT) - OVERSCAN);
  const last = Math.min(rows.length, Math.ceil((scrollTop + height) / ROW_HEIGHT) + OVERSCAN);
  return (
    <div
      role="tree"
      style={{ height, overflowY: 'auto', position: 'relative', borderTop: '1px solid rgba(128,128,128,0.25)' }}
      onScroll={(e: UIEvent<HTMLDivElement>) => setScrollTop(e.currentTarget.scrollTop)}
    >
      <div style={{ height: rows.length * ROW_HEIGHT, position: 'relative' }}>
        {rows.slice(first, last).map((row, i) => (
          <SpanRow
            key={row.span.spanId}
            row={row}
            top={(first + i) * ROW_HEIGHT}
            totalMs={model.totalMs}
            collapsed={collapsed.has(row.span.spanId)}
            selected={selected === row.span.spanId}
            onToggle={onToggle}
            onSelect={onSelect}
          />
        ))}
      </div>
    </div>
  );
}

type RowProps = {
  row: PlacedSpan;
  top: number;
  totalMs: number;
  collapsed: boolean;
  selected: boolean;
  onToggle: (spanId: string) => void;
  onSelect: (spanId: string) => void;
};

function SpanRow({ row, top, totalMs, collapsed, selected, onToggle, onSelect }: RowProps) {
  const t = useTexts(traceTexts).viewer;
  const { span } = row;
  const scale = totalMs > 0 ? 100 / totalMs : 0;
  const left = row.startMs * scale;
  const width = Math.max(row.durationMs * scale, 0.2);
  const failed = span.status === 'error';
  const colour = failed ? '#ea5455' : row.onCriticalPath ? '#7367f0' : '#b3aef5';
  return (
    <div
      role="treeitem"
      aria-selected={selected}
      aria-expanded={row.childIds.length > 0 ? !collapsed : undefined}
      data-critical={row.onCriticalPath || undefined}
      tabIndex={-1}
      onClick={() => onSelect(span.spanId)}
      onKeyDown={(e) => e.key === 'Enter' && onSelect(span.spanId)}
      style={{
        position: 'absolute',
        top,
        height: ROW_HEIGHT,
        left: 0,
        right: 0,
        display: 'flex',
        alignItems: 'center',
        cursor: 'pointer',
        background: selected ? 'rgba(115,103,240,0.12)' : undefined,
      }}
    >
      <div
        style={{
          width: LABEL_WIDTH,
          flex: 'none',
          paddingLeft: 4 + row.depth * 14,
          whiteSpace: 'nowrap',
          overflow: 'hidden',
        }}
      >
        {row.childIds.length > 0 ? (
          <Button
            size="small"
            type="text"
            aria-label={fill(t.toggle, { name: span.name })}
            onClick={(e) => {
              e.stopPropagation();
              onToggle(span.spanId);
            }}
          >
            {collapsed ? '▸' : '▾'}
          </Button>
        ) : (
          <span style={{ display: 'inline-block', width: 24 }} />
        )}
        <Typography.Text type={failed ? 'danger' : undefined} strong={row.onCriticalPath}>
          {span.service}
        </Typography.Text>{' '}
        <Typography.Text type="secondary">{span.name}</Typography.Text>
      </div>
      <div style={{ position: 'relative', flex: 1, height: 12, marginRight: 72 }}>
        <div
          style={{
            position: 'absolute',
            left: `${left}%`,
            width: `${width}%`,
            height: 12,
            background: colour,
            borderRadius: 2,
          }}
        />
        <span
          style={{
            position: 'absolute',
            left: `calc(${Math.min(left + width, 100)}% + 4px)`,
            fontSize: 11,
            whiteSpace: 'nowrap',
          }}
        >
          {formatMs(row.durationMs)}
        </span>
      </div>
    </div>
  );
}
