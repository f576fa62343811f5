import { type GroupFigures, screenByName } from '@sextant/api';
import { Link } from 'react-router';
import { useLocale, useTexts } from '../../../lib/i18n.tsx';
import { analyticsTexts } from '../texts.ts';
import { ChartCard } from './ChartCard.tsx';
import { pct, plain } from './echarts.ts';
import { Grade } from './Grade.tsx';

export const projectDashboardPath = (id: string) =>
  screenByName('dashboard-project-dashboard-detail').path.replace(':id', encodeURIComponent(id));

/** Unit, functional and diff line coverage per project or version, as bars and as a table. */
export function GroupFiguresCard(props: { rows: GroupFigures[]; by: 'projects' | 'versions'; height?: number }) {
  const t = useTexts(analyticsTexts);
  const { formatPercent, formatDate } = useLocale();
  const { rows } = props;
  const option = {
    animation: false,
    grid: { left: 48, right: 16, top: 32, bottom: 48 },
    legend: { top: 0 },
    tooltip: { trigger: 'axis', renderMode: 'richText' },
    xAxis: { type: 'category', data: rows.map((r) => plain(r.name)), axisLabel: { rotate: rows.length > 8 ? 30 : 0 } },
    yAxis: { type: 'value', min: 0, max: 100, axisLabel: { formatter: (v: number) => formatPercent(v / 100, 0) } },
    series: [
      { name: t.unitLine, type: 'bar', data: rows.map((r) => pct(r.unitLineCoverage)) },
      { name: t.functionalLine, type: 'bar', data: rows.map((r) => pct(r.functionalLineCoverage)) },
      { name: t.diffCoverage, type: 'bar', data: rows.map((r) => pct(r.diffLineCoverage)) },
    ],
  };
  const label = props.by === 'projects' ? t.project : t.version;
  return (
    <ChartCard<GroupFigures>
      title={props.by === 'projects' ? t.byProject : t.byVersion}
      name={props.by}
      option={option}
      height={props.height ?? 320}
      table={{
        rows,
        rowKey: (r) => r.key,
        columns: [
          {
            key: 'n',
            title: label,
            render: (_, r) =>
              props.by === 'projects' ? <Link to={projectDashboardPath(r.key)}>{r.name}</Link> : r.name,
          },
          { key: 'a', title: t.apps, dataIndex: 'apps', align: 'right' },
          { key: 'u', title: t.unitLine, render: (_, r) => <Grade value={r.unitLineCoverage} /> },
          { key: 'f', title: t.functionalLine, render: (_, r) => <Grade value={r.functionalLineCoverage} /> },
          { key: 'd', title: t.diffCoverage, render: (_, r) => <Grade value={r.diffLineCoverage} /> },
          {
            key: 'm',
            title: `${t.coveredMethods} / ${t.changedMethods}`,
            align: 'right',
            render: (_, r) => `${r.coveredMethods} / ${r.changedMethods}`,
          },
          { key: 'r', title: t.reports, dataIndex: 'reports', align: 'right' },
          { key: 'l', title: t.lastReport, render: (_, r) => (r.lastReportAt ? formatDate(r.lastReportAt) : '—') },
        ],
        csv: {
          header: [
            label,
            t.apps,
            t.unitLine,
            t.functionalLine,
            t.diffCoverage,
            t.changedMethods,
            t.coveredMethods,
            t.reports,
            t.lastReport,
          ],
          row: (r) => [
            r.name,
            r.apps,
            r.unitLineCoverage,
            r.functionalLineCoverage,
            r.diffLineCoverage,
            r.changedMethods,
            r.coveredMethods,
            r.reports,
            r.lastReportAt,
          ],
        },
      }}
    />
  );
}
