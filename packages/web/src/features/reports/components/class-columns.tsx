import type { DETAIL_SORTS, JvmNameWords, Report, ReportDetail } from '@sextant/api';
import { Space, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType, SortOrder } from 'antd/es/table/interface';
import { Link } from 'react-router';
import type { ChoosableColumn } from '../../../lib/column-choice.ts';
import { fill } from '../../../lib/i18n.tsx';
import type { reportTexts } from '../texts.ts';
import { reportSourcePath } from '../url.ts';
import type { Row } from './class-rows.ts';
import { countsStatements } from './counter-labels.ts';
import { detailName } from './detail-names.ts';
import { CountOf, GradeValue } from './GradeValue.tsx';

export type Sort = (typeof DETAIL_SORTS)[number];
type Column = ColumnsType<Row>[number];
export type OptionalColumn = ChoosableColumn & { column: Column };
type ReportTexts = (typeof reportTexts)['en'];

/** What every column builder needs: the report, its texts, and the order a column shows. */
export type ColumnContext = {
  report: Report;
  t: ReportTexts;
  order: (key: Sort) => SortOrder;
  formatNumber: (n: number) => string;
};

function figure(
  { order }: ColumnContext,
  key: Sort,
  title: string,
  covered: keyof ReportDetail,
  totalKey: keyof ReportDetail,
): Column {
  return {
    key,
    title,
    width: 100,
    sorter: true,
    sortOrder: order(key),
    render: (_: unknown, r: Row) =>
      r.note ? null : (
        <Space direction="vertical" size={0}>
          <GradeValue value={r[key as keyof ReportDetail] as number | null} />
          <CountOf
            covered={r[covered] as number | null}
            total={r[totalKey] as number | null}
            coveredAtMost={r[`${covered}AtMost` as keyof ReportDetail] as number | null}
          />
        </Space>
      ),
  };
}

/** One column per figure the report has: a figure its format lacks ("—" in every row) gets none (issue 37). */
export function figureColumns(context: ColumnContext): Column[] {
  const { report, t } = context;
  const has = (total: keyof Report) => report[total] !== null;
  const instructions = countsStatements(report) ? t.figures.statements : t.figures.instructions;
  return [
    has('lineTotal') && figure(context, 'lineCoverage', t.figures.lines, 'lineCovered', 'lineTotal'),
    has('branchTotal') && figure(context, 'branchCoverage', t.figures.branches, 'branchCovered', 'branchTotal'),
    has('methodTotal') && figure(context, 'methodCoverage', t.figures.methods, 'methodCovered', 'methodTotal'),
    has('instructionTotal') &&
      figure(context, 'instructionCoverage', instructions, 'instructionCovered', 'instructionTotal'),
    has('complexityTotal') && figure(context, 'cxty', t.figures.complexity, 'complexityCovered', 'complexityTotal'),
  ].filter((c) => c !== false);
}

function countColumn({ order, formatNumber }: ColumnContext, key: 'lineTotal' | 'branchTotal', title: string) {
  return {
    key,
    title,
    width: key === 'lineTotal' ? 96 : 90,
    sorter: true,
    sortOrder: order(key),
    render: (_: unknown, r: Row) => {
      const value = r[key];
      return r.note ? null : value === null ? '—' : formatNumber(value);
    },
  };
}

/** The columns the user may show or hide. */
export function optionalColumns(context: ColumnContext): OptionalColumn[] {
  const { t, order } = context;
  return [
    {
      key: 'lineTotal',
      title: t.classes.coverableLines,
      shown: false,
      column: countColumn(context, 'lineTotal', t.classes.coverableLines),
    },
    {
      key: 'branchTotal',
      title: t.classes.branchTotal,
      shown: false,
      column: countColumn(context, 'branchTotal', t.classes.branchTotal),
    },
    {
      key: 'codeAuthor',
      title: t.classes.author,
      shown: true,
      column: {
        key: 'codeAuthor',
        title: t.classes.author,
        width: 100,
        sorter: true,
        sortOrder: order('codeAuthor'),
        ellipsis: true,
        render: (_, r) => (r.note ? null : (r.codeAuthor ?? '—')),
      },
    },
  ];
}

type NameProps = { row: Row; t: ReportTexts; words: JvmNameWords; parent?: ReportDetail; siblings?: string[] };

/** A class or method name, readable (JVM names spelled out), with its change tag and the rest of the name below. */
export function DetailNameCell({ row: r, t, words, parent, siblings }: NameProps) {
  if (r.note) return <Typography.Text type="secondary">{r.note}</Typography.Text>;
  const { main, rest } = detailName(r, words, parent, siblings);
  // One tag: a method's change, or a class holding a changed method.
  const tag = r.changeStatus ? (
    <Tag color={r.changeStatus === 'added' ? 'green' : 'gold'}>{t.classes.changeStatuses[r.changeStatus]}</Tag>
  ) : r.kind === 'class' && r.changed ? (
    <Tag color="gold">{t.classes.changed}</Tag>
  ) : null;
  // Issue 38: a method this build's runs missed that an older build covered, unchanged since.
  const carried = r.carriedFrom ? (
    <Tooltip title={fill(t.carried.methodHint, { commit: r.carriedFrom.slice(0, 12) })}>
      <Tag color="purple" className="carried-tag">
        {t.carried.methodTag}
      </Tag>
    </Tooltip>
  ) : null;
  return (
    <div className={`detail-name detail-${r.kind}`}>
      <Typography.Text strong={r.kind === 'class'} title={r.name} ellipsis>
        {main}
      </Typography.Text>
      {tag}
      {carried}
      {rest && (
        <Typography.Text type="secondary" style={{ fontSize: 12 }} title={rest} ellipsis>
          {rest}
        </Typography.Text>
      )}
    </div>
  );
}

/** The link to the row's source, at its first line. */
export function sourceColumn({ report, t }: ColumnContext): Column {
  return {
    key: 'source',
    title: t.classes.source,
    width: 60,
    render: (_, r) =>
      r.note || !r.filePath ? null : (
        <Link to={`${reportSourcePath(report.id, r.filePath)}${r.startLine ? `&line=${r.startLine}` : ''}`}>
          {t.classes.view}
        </Link>
      ),
  };
}
