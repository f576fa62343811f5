import type { InterfaceDetail, Screen } from '@sextant/api';
import { App, Button, Card, Col, Empty, Row, Spin, Statistic, Table, Tag } from 'antd';
import { useParams, useSearchParams } from 'react-router';
import { useLocale, useTexts } from '../../lib/i18n.tsx';
import { openInViewer } from '../../lib/open-in-viewer.ts';
import { useSession } from '../../lib/session.tsx';
import { useInterfaceDetail } from './api/interfaces.ts';
import { DurationTag } from './components/DurationTag.tsx';
import { LatencyHistogram, LatencyOverTime } from './components/InterfaceCharts.tsx';
import { readWindow, WindowFilters, writeWindow } from './components/WindowFilters.tsx';
import { traceTexts } from './texts.ts';
import { formatMs } from './url.ts';

type Call = InterfaceDetail['slowest'][number];

/** /otel/interfaceAnalytic/{interface}: one interface over the window (issue 36). */
export default function InterfaceDetailPage(_: { screen: Screen }) {
  const t = useTexts(traceTexts).analytics;
  const { formatDate, formatPercent, formatNumber, locale } = useLocale();
  const { settings } = useSession();
  const { message } = App.useApp();
  const { id = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const search = readWindow(params);
  const detail = useInterfaceDetail(search, id);
  const open = (traceId: string) =>
    search.appId &&
    openInViewer(settings.traceViewerUrl, traceId, search.appId, locale).catch(() => message.error(t.openFailed));
  const calls = (title: string, rows: Call[]) => (
    <Card size="small" title={title}>
      <Table<Call>
        rowKey="traceId"
        size="small"
        pagination={false}
        dataSource={rows}
        columns={[
          { title: t.start, dataIndex: 'start', render: (v: string) => formatDate(v) },
          { title: t.duration, dataIndex: 'durationMs', render: (v: number) => <DurationTag ms={v} /> },
          {
            title: t.status,
            dataIndex: 'failed',
            render: (v: boolean) => (v ? <Tag color="error">{t.failed}</Tag> : <Tag>{t.ok}</Tag>),
          },
          { title: t.testCase, dataIndex: 'testCase', render: (v: string | null) => v ?? '—' },
          { title: t.version, dataIndex: 'appVersion', render: (v: string | null) => v ?? '—' },
          {
            title: '',
            key: 'open',
            render: (_v, row) => (
              <Button type="link" size="small" onClick={() => open(row.traceId)}>
                {t.openTrace}
              </Button>
            ),
          },
        ]}
      />
    </Card>
  );
  const d = detail.data;
  return (
    <Card title={id}>
      <WindowFilters search={search} onSearch={(next) => setParams(writeWindow(next))} />
      {detail.isLoading && <Spin />}
      {detail.isError && <Empty description={t.noCalls} />}
      {d && (
        <Row gutter={[16, 16]}>
          <Col span={24}>
            <Row gutter={16}>
              <Col span={4}>
                <Statistic title={t.calls} value={formatNumber(d.summary.calls)} />
              </Col>
              <Col span={4}>
                <Statistic title={t.errorRate} value={formatPercent(d.summary.errorRate)} />
              </Col>
              <Col span={4}>
                <Statistic title={t.p50} value={formatMs(d.summary.p50Ms)} />
              </Col>
              <Col span={4}>
                <Statistic title={t.p95} value={formatMs(d.summary.p95Ms)} />
              </Col>
              <Col span={4}>
                <Statistic title={t.p99} value={formatMs(d.summary.p99Ms)} />
              </Col>
            </Row>
          </Col>
          <Col xs={24} xl={14}>
            <Card size="small" title={t.overTime}>
              <LatencyOverTime series={d.series} />
            </Card>
          </Col>
          <Col xs={24} xl={10}>
            <Card size="small" title={t.histogram}>
              <LatencyHistogram histogram={d.histogram} />
            </Card>
          </Col>
          <Col xs={24} xl={12}>
            {calls(t.slowest, d.slowest)}
          </Col>
          <Col xs={24} xl={12}>
            {calls(t.failing, d.failing)}
          </Col>
          <Col xs={24} xl={12}>
            <Card size="small" title={t.testCases}>
              <Table
                rowKey="testCase"
                size="small"
                pagination={false}
                dataSource={d.testCases}
                columns={[
                  { title: t.testCase, dataIndex: 'testCase' },
                  { title: t.calls, dataIndex: 'calls' },
                  { title: t.lastSeen, dataIndex: 'lastSeen', render: (v: string) => formatDate(v) },
                ]}
              />
            </Card>
          </Col>
          <Col xs={24} xl={12}>
            <Card size="small" title={t.methods}>
              <Table
                rowKey={(m) => `${m.namespace}.${m.function}@${m.file}`}
                size="small"
                pagination={false}
                dataSource={d.methods}
                columns={[
                  {
                    title: t.method,
                    key: 'method',
                    render: (_v, m) => [m.namespace, m.function].filter(Boolean).join('.'),
                  },
                  { title: t.file, dataIndex: 'file', render: (v: string | null) => v ?? '—' },
                  { title: t.calls, dataIndex: 'calls' },
                ]}
              />
            </Card>
          </Col>
        </Row>
      )}
    </Card>
  );
}
