import type { CaseImpact } from '@sextant/api';
import type { UseQueryResult } from '@tanstack/react-query';
import { Card, Col, Empty, Row, Space, Statistic, Table, Tag, Typography } from 'antd';
import { fill, useTexts } from '../../lib/i18n.tsx';
import { methodLabel, useJvmWords } from '../../lib/jvm-words.ts';
import { tableLoading } from '../../lib/table-loading.ts';
import { casesTexts } from './cases-texts.ts';
import { ChartCard } from './components/ChartCard.tsx';
import { plain } from './components/echarts.ts';
import { Grade } from './components/Grade.tsx';

type Rerun = CaseImpact['reruns'][number];
type Gap = CaseImpact['gaps']['items'][number];
export const GAPS_PER_PAGE = 10;

/**
 * For the filtered versions' changed methods: how many cases reached them, the cases to re-run (ranked by
 * how many they reach) and the test gaps (changed methods no case ever reached), paged on the server.
 */
export function CaseImpactPanel({
  impact,
  gapPage,
  onGapPage,
}: {
  impact: UseQueryResult<CaseImpact, Error>;
  gapPage: number;
  onGapPage: (page: number) => void;
}) {
  const t = useTexts(casesTexts);
  const words = useJvmWords();
  const reruns = impact.data?.reruns ?? [];
  const label = (r: Rerun) => plain(`${r.caseKey} (${r.appName})`);
  const bars = {
    animation: false,
    grid: { left: 180, right: 24, top: 16, bottom: 24 },
    tooltip: { trigger: 'axis', renderMode: 'richText' },
    xAxis: { type: 'value', minInterval: 1 },
    yAxis: { type: 'category', inverse: true, data: reruns.map(label) },
    series: [{ name: t.reached, type: 'bar', color: '#ff9f43', barMaxWidth: 28, data: reruns.map((r) => r.reached) }],
  };
  const versions = (impact.data?.versions ?? []).map((v) => `${v.appName} ${v.version}`).join(', ');
  const changed = impact.data?.changedMethods ?? 0;
  return (
    <>
      {impact.data && impact.data.versions.length > 0 && (
        <Card size="small" title={fill(t.impactOf, { versions })}>
          <Space size={48} wrap>
            <Statistic title={t.changedTotal} value={changed} />
            <Statistic title={t.reachedTotal} value={impact.data.reachedMethods} />
            <Statistic
              title={t.gapTotal}
              value={impact.data.gaps.total}
              valueStyle={{ color: impact.data.gaps.total > 0 ? '#ea5455' : '#28c76f' }}
            />
            <Statistic
              title={t.reachedShare}
              valueRender={() => <Grade value={changed ? (changed - impact.data.gaps.total) / changed : null} />}
            />
          </Space>
        </Card>
      )}
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={12}>
          {reruns.length === 0 && impact.isSuccess ? (
            <Card size="small" title={t.rerunChart}>
              <Empty description={t.noRerun} />
            </Card>
          ) : (
            <ChartCard<Rerun>
              title={t.rerunChart}
              name="cases-to-rerun"
              option={bars}
              height={Math.max(220, reruns.length * 28 + 50)}
              table={{
                rows: reruns,
                rowKey: (r) => `${r.appId}|${r.caseKey}`,
                columns: [
                  { key: 'c', title: t.case, dataIndex: 'caseKey' },
                  { key: 't', title: t.title, render: (_, r) => r.title ?? '' },
                  { key: 'a', title: t.app, dataIndex: 'appName' },
                  { key: 'r', title: t.reached, dataIndex: 'reached', align: 'right' },
                ],
                csv: {
                  header: [t.case, t.title, t.app, t.reached],
                  row: (r) => [r.caseKey, r.title ?? '', r.appName, r.reached],
                },
              }}
            />
          )}
        </Col>
        <Col xs={24} xl={12}>
          <Card size="small" title={t.gaps}>
            <Table<Gap>
              size="small"
              rowKey={(g) => `${g.appName}|${g.filePath}|${g.className}|${g.method}`}
              loading={tableLoading(impact)}
              dataSource={impact.data?.gaps.items ?? []}
              locale={{ emptyText: t.gapsNone }}
              pagination={{
                current: gapPage,
                pageSize: GAPS_PER_PAGE,
                total: impact.data?.gaps.total ?? 0,
                onChange: onGapPage,
              }}
              columns={[
                {
                  key: 'm',
                  title: t.method,
                  render: (_, g) => (
                    <Space direction="vertical" size={0} style={{ wordBreak: 'break-all' }}>
                      <Typography.Text code>{methodLabel(g, words)}</Typography.Text>
                      <Typography.Text type="secondary">{g.filePath}</Typography.Text>
                    </Space>
                  ),
                },
                { key: 'a', title: t.app, dataIndex: 'appName' },
                { key: 'v', title: t.version, dataIndex: 'version' },
                {
                  key: 's',
                  title: t.changeStatus,
                  render: (_, g) =>
                    g.changeStatus ? <Tag>{g.changeStatus === 'added' ? t.added : t.modified}</Tag> : null,
                },
              ]}
            />
          </Card>
        </Col>
      </Row>
    </>
  );
}
