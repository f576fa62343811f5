import type { RegressionInterface, Screen } from '@sextant/api';
import { Alert, Card, Col, Descriptions, Empty, Row, Spin, Table, Tag, Typography } from 'antd';
import { useParams } from 'react-router';
import { useTexts } from '../../lib/i18n.tsx';
import { useRegressionRun } from './api/regressions.ts';
import { useSideLabel } from './RegressionListPage.tsx';
import { traceTexts } from './texts.ts';
import { formatMs } from './url.ts';

const VERDICT_COLOURS = {
  added: 'blue',
  removed: 'default',
  slower: 'error',
  'failing-more': 'volcano',
  faster: 'success',
  unchanged: 'default',
} as const;
const p = (v: number | null) => (v === null ? '—' : v < 0.0001 ? '< 0.0001' : v.toFixed(4));

/** /otel/regression/{id}: one run's interfaces compared, with the named test's p-values (issue 36). */
export default function RegressionDetailPage(_: { screen: Screen }) {
  const t = useTexts(traceTexts).regression;
  const { id = '' } = useParams();
  const run = useRegressionRun(id);
  const sideLabel = useSideLabel();
  if (run.isLoading) return <Spin />;
  if (!run.data) return <Empty description={t.notFound} />;
  const r = run.data;
  const figure = (side: 'base' | 'candidate') => (i: RegressionInterface) =>
    i[side] ? `${formatMs(i[side].p95Ms)} · ${i[side].errors}/${i[side].calls}` : '—';
  const candidateOnly = r.result.testCases.candidate.filter((c) => !r.result.testCases.base.includes(c));
  return (
    <Card title={r.name}>
      <Descriptions size="small" column={2} bordered style={{ marginBottom: 16 }}>
        <Descriptions.Item label={t.base}>{sideLabel(r.base)}</Descriptions.Item>
        <Descriptions.Item label={t.candidate}>{sideLabel(r.candidate)}</Descriptions.Item>
        <Descriptions.Item label={t.test} span={2}>
          {r.result.test}
        </Descriptions.Item>
      </Descriptions>
      <Alert type="info" showIcon style={{ marginBottom: 16 }} message={t.explain} />
      <Table<RegressionInterface>
        rowKey="interface"
        size="small"
        pagination={false}
        dataSource={r.result.interfaces}
        columns={[
          { title: t.interface, dataIndex: 'interface' },
          {
            title: t.verdict,
            dataIndex: 'verdicts',
            render: (vs: RegressionInterface['verdicts']) =>
              (vs.length ? vs : (['unchanged'] as const)).map((v) => (
                <Tag key={v} color={VERDICT_COLOURS[v]}>
                  {t.verdicts[v]}
                </Tag>
              )),
          },
          { title: t.baseP95, key: 'b', render: figure('base') },
          { title: t.candidateP95, key: 'c', render: figure('candidate') },
          {
            title: t.delta,
            dataIndex: 'p95DeltaMs',
            render: (v: number | null) => (v === null ? '—' : `${v >= 0 ? '+' : '−'}${formatMs(Math.abs(v))}`),
          },
          { title: t.pSlower, dataIndex: 'pSlower', render: p },
          { title: t.pFailing, dataIndex: 'pFailing', render: p },
        ]}
      />
      <Row gutter={16} style={{ marginTop: 16 }}>
        <Col span={12}>
          <Typography.Title level={5}>{t.casesCandidate}</Typography.Title>
          {r.result.testCases.candidate.map((c) => (
            <Tag key={c} color={candidateOnly.includes(c) ? 'purple' : undefined}>
              {c}
            </Tag>
          ))}
        </Col>
        <Col span={12}>
          <Typography.Title level={5}>{t.casesBase}</Typography.Title>
          {r.result.testCases.base.map((c) => (
            <Tag key={c}>{c}</Tag>
          ))}
        </Col>
      </Row>
    </Card>
  );
}
