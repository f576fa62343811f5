import { HistoryOutlined } from '@ant-design/icons';
import type { Report } from '@sextant/api';
import { Card, Space, Tag, Tooltip, Typography } from 'antd';
import { Link } from 'react-router';
import { fill, useLocale, useTexts } from '../../../lib/i18n.tsx';
import { reportTexts } from '../texts.ts';
import { reportDetailPath } from '../url.ts';
import { CountOf, GradeValue } from './GradeValue.tsx';

/**
 * Issue 38: what coverage carried from older builds adds, beside (never inside) the report's own
 * figures, and which older commits it came from. Nothing when carry-forward is off.
 */
export function CarriedFigures({ report }: { report: Report }) {
  const t = useTexts(reportTexts);
  const { formatDate, formatNumber } = useLocale();
  if (report.carryForwardDays === 0) return null;
  const tag = (
    <Tooltip title={fill(t.carried.hint, { env: report.envType, days: report.carryForwardDays })}>
      <Tag icon={<HistoryOutlined />} color="purple" className="carried-tag">
        {t.carried.tag}
      </Tag>
    </Tooltip>
  );
  const carried = report.carried;
  if (!carried) {
    return (
      <Space className="carried-figures">
        {tag}
        <Typography.Text type="secondary">{fill(t.carried.nothing, { days: report.carryForwardDays })}</Typography.Text>
      </Space>
    );
  }
  const figures = [
    ...(report.coverageType === 'incremental'
      ? [
          {
            name: t.figures.changedLines,
            value: carried.diffLineCoverage,
            covered: carried.diffLineCovered,
            total: report.diffLineTotal,
          },
        ]
      : []),
    { name: t.figures.lines, value: carried.lineCoverage, covered: carried.lineCovered, total: report.lineTotal },
    {
      name: t.figures.methods,
      value: carried.methodCoverage,
      covered: carried.methodCovered,
      total: report.methodTotal,
    },
  ];
  return (
    <Card size="small" className="carried-figures" title={tag}>
      <Space size="large" wrap>
        {figures.map((f) => (
          <div key={f.name} className="carried-figure">
            <Typography.Text type="secondary">{fill(t.carried.withCarried, { figure: f.name })}</Typography.Text>
            <div>
              <GradeValue value={f.value} strong /> <CountOf covered={f.covered} total={f.total} />
            </div>
          </div>
        ))}
      </Space>
      <ul className="carried-sources">
        {carried.sources.map((s) => (
          <li key={s.commit}>
            <Typography.Text type="secondary">
              {fill(t.carried.source, {
                commit: s.commit.slice(0, 12),
                uploads: formatNumber(s.uploads),
                when: formatDate(s.lastUploadAt),
                lines: formatNumber(s.lines),
                methods: formatNumber(s.methods),
              })}
            </Typography.Text>
            {s.report && (
              <>
                {' '}
                <Typography.Text type="secondary">{t.carried.seenIn}</Typography.Text>{' '}
                <Link to={reportDetailPath(s.report.id)}>{s.report.name}</Link>
              </>
            )}
          </li>
        ))}
      </ul>
    </Card>
  );
}
