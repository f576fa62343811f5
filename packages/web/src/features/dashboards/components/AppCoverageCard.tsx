import { type Dashboard, screenByName } from '@sextant/api';
import { Card, Col, Empty, Row, Space, Typography } from 'antd';
import { Link } from 'react-router';
import { useTexts } from '../../../lib/i18n.tsx';
import { dashboardTexts } from '../texts.ts';
import { Figure } from './Figure.tsx';
import { TrendChart } from './TrendChart.tsx';

type Summary = Dashboard['apps'][number];

const detailPath = (id: string) =>
  screenByName('dashboard-coverage-detail').path.replace(':id', encodeURIComponent(id));

/** One app and test type: the latest full and incremental report's figures and the trend. */
export function AppCoverageCard({ summary }: { summary: Summary }) {
  const t = useTexts(dashboardTexts);
  const { latestFull: full, latestIncremental: inc } = summary;
  return (
    <Card
      size="small"
      title={
        <Space>
          <Typography.Text strong>{summary.appName}</Typography.Text>
          <Typography.Text type="secondary">
            {summary.teamName} · {summary.testType === 1 ? t.unitTests : t.functionalTests}
          </Typography.Text>
        </Space>
      }
    >
      {!full && !inc ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t.noFinishedReport} />
      ) : (
        <>
          <Row gutter={8}>
            <Col span={12}>
              <Typography.Text type="secondary" style={{ fontSize: 12, display: 'block' }}>
                {t.full}
                {full ? ' · ' : ''}
                {full && <Link to={detailPath(full.id)}>{full.newVersion}</Link>}
              </Typography.Text>
              <Space size={16}>
                <Figure label={t.lines} value={full?.lineCoverage} />
                <Figure label={t.branches} value={full?.branchCoverage} />
              </Space>
            </Col>
            <Col span={12}>
              <Typography.Text type="secondary" style={{ fontSize: 12, display: 'block' }}>
                {t.incremental}
                {inc ? ' · ' : ''}
                {inc && <Link to={detailPath(inc.id)}>{inc.newVersion}</Link>}
              </Typography.Text>
              <Space size={16}>
                <Figure label={t.changedLines} value={inc?.diffLineCoverage} />
                <Figure label={t.lines} value={inc?.lineCoverage} />
              </Space>
            </Col>
          </Row>
          {new Set(summary.trend.map((p) => p.version)).size > 1 && <TrendChart trend={summary.trend} />}
        </>
      )}
    </Card>
  );
}
