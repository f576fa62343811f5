import { type Dashboard, screenByName } from '@sextant/api';
import { Card, Col, Empty, Row, Space, Typography } from 'antd';
import { Link } from 'react-router';
import { Figure } from './Figure.tsx';
import { TrendChart } from './TrendChart.tsx';

type Summary = Dashboard['apps'][number];

const detailPath = (id: string) =>
  screenByName('dashboard-coverage-detail').path.replace(':id', encodeURIComponent(id));

/** One app and test type: the latest full and incremental report's figures and the trend. */
export function AppCoverageCard({ summary }: { summary: Summary }) {
  const { latestFull: full, latestIncremental: inc } = summary;
  return (
    <Card
      size="small"
      title={
        <Space>
          <Typography.Text strong>{summary.appName}</Typography.Text>
          <Typography.Text type="secondary">
            {summary.teamName} · {summary.testType === 1 ? 'unit tests' : 'functional tests'}
          </Typography.Text>
        </Space>
      }
    >
      {!full && !inc ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="No finished report yet." />
      ) : (
        <>
          <Row gutter={8}>
            <Col span={12}>
              <Typography.Text type="secondary" style={{ fontSize: 12, display: 'block' }}>
                Full{full ? ' · ' : ''}
                {full && <Link to={detailPath(full.id)}>{full.newVersion}</Link>}
              </Typography.Text>
              <Space size={16}>
                <Figure label="Lines" value={full?.lineCoverage} />
                <Figure label="Branches" value={full?.branchCoverage} />
              </Space>
            </Col>
            <Col span={12}>
              <Typography.Text type="secondary" style={{ fontSize: 12, display: 'block' }}>
                Incremental{inc ? ' · ' : ''}
                {inc && <Link to={detailPath(inc.id)}>{inc.newVersion}</Link>}
              </Typography.Text>
              <Space size={16}>
                <Figure label="Changed lines" value={inc?.diffLineCoverage} />
                <Figure label="Lines" value={inc?.lineCoverage} />
              </Space>
            </Col>
          </Row>
          {summary.trend.length > 1 && <TrendChart trend={summary.trend} />}
        </>
      )}
    </Card>
  );
}
