import type { AgentsNow, AppStanding, Screen } from '@sextant/api';
import { Card, Col, Row, Space, Statistic, Table } from 'antd';
import { useTexts } from '../../lib/i18n.tsx';
import { useSession } from '../../lib/session.tsx';
import { useCockpit } from './api/get-cockpit.ts';
import { ChartCard } from './components/ChartCard.tsx';
import { plain } from './components/echarts.ts';
import { FilterBar } from './components/FilterBar.tsx';
import { Grade } from './components/Grade.tsx';
import { BIN_COLORS, BINS, binOf, binsByTeam, furthestBelow } from './components/grade-bins.ts';
import { ActivityChart, CoverageTrendChart } from './components/OverviewCharts.tsx';
import { BurnDownChart } from './components/RiskAndAgentCharts.tsx';
import { ScreenHead } from './components/ScreenHead.tsx';
import { analyticsTexts } from './texts.ts';
import { useAnalyticsUrl } from './url.ts';

const CHART = 250;
const sum = (rows: AgentsNow[], key: 'alive' | 'agents') => rows.reduce((n, r) => n + r[key], 0);

/** /dashboard/cockpit: the management view, readable at a glance on one 1920×1080 screen. */
export default function CockpitPage({ screen }: { screen: Screen }) {
  const t = useTexts(analyticsTexts);
  const { settings } = useSession();
  const url = useAnalyticsUrl();
  const cockpit = useCockpit(url.filter);
  const standings = cockpit.data?.standings ?? [];
  const agents = cockpit.data?.agents ?? [];
  const teams = binsByTeam(standings, settings);
  const worst = furthestBelow(standings, settings, 6);
  const label = { excellent: t.excellent, passing: t.passing, failing: t.failing, noFigure: t.noFigure };
  const counts = BINS.map((bin) => ({
    bin,
    apps: standings.filter((s) => binOf(s.lineCoverage, settings) === bin).length,
  }));
  const kind = (s: AppStanding) => (s.testType === 1 ? t.unitShort : t.functionalShort);
  const pie = {
    animation: false,
    tooltip: { trigger: 'item', renderMode: 'richText' },
    legend: { bottom: 0 },
    series: [
      {
        type: 'pie',
        radius: ['40%', '70%'],
        top: -20,
        label: { formatter: '{c}' },
        data: counts.map((c) => ({ name: label[c.bin], value: c.apps, itemStyle: { color: BIN_COLORS[c.bin] } })),
      },
    ],
  };
  const bars = {
    animation: false,
    grid: { left: 100, right: 16, top: 28, bottom: 24 },
    legend: { top: 0 },
    tooltip: { trigger: 'axis', renderMode: 'richText' },
    xAxis: { type: 'value', minInterval: 1 },
    yAxis: { type: 'category', inverse: true, data: teams.map((r) => plain(r.team)) },
    series: BINS.map((bin) => ({
      name: label[bin],
      type: 'bar',
      stack: 'g',
      color: BIN_COLORS[bin],
      data: teams.map((r) => r[bin]),
    })),
  };
  return (
    <Space direction="vertical" size={12} style={{ width: '100%' }}>
      <ScreenHead screen={screen} error={cockpit.error} />
      <FilterBar url={url} hide={['version']} />
      <Row gutter={12}>
        {[
          [t.appsInScope, cockpit.data?.apps ?? 0],
          [t.reportsLast30, cockpit.data?.reports ?? 0],
          [t.belowPassing, counts.find((c) => c.bin === 'failing')?.apps ?? 0],
          [t.excellent, counts.find((c) => c.bin === 'excellent')?.apps ?? 0],
          [t.openRisks, cockpit.data?.burnDown.points.at(-1)?.open ?? 0],
          [t.agentsAlive, `${sum(agents, 'alive')} / ${sum(agents, 'agents')}`],
        ].map(([title, value]) => (
          <Col span={4} key={String(title)}>
            <Card size="small">
              <Statistic title={title} value={value} />
            </Card>
          </Col>
        ))}
      </Row>
      <Row gutter={12}>
        <Col span={6}>
          <ChartCard
            title={t.gradeDistribution}
            name="grades"
            option={pie}
            height={CHART}
            table={{
              rows: counts,
              rowKey: (c) => c.bin,
              columns: [
                { key: 'g', title: t.fullCoverage, render: (_, c) => label[c.bin] },
                { key: 'n', title: t.apps, dataIndex: 'apps', align: 'right' },
              ],
              csv: { header: [t.fullCoverage, t.apps], row: (c) => [label[c.bin], c.apps] },
            }}
          />
        </Col>
        <Col span={9}>
          <ChartCard
            title={t.byTeam}
            name="teams"
            option={bars}
            height={CHART}
            table={{
              rows: teams,
              rowKey: (r) => r.team,
              columns: [
                { key: 't', title: t.team, dataIndex: 'team' },
                ...BINS.map((bin) => ({ key: bin, title: label[bin], dataIndex: bin, align: 'right' as const })),
              ],
              csv: { header: [t.team, ...BINS.map((b) => label[b])], row: (r) => [r.team, ...BINS.map((b) => r[b])] },
            }}
          />
        </Col>
        <Col span={9}>
          <CoverageTrendChart weeks={cockpit.data?.trend ?? []} height={CHART} />
        </Col>
      </Row>
      <Row gutter={12}>
        <Col span={8}>
          <ActivityChart days={cockpit.data?.activity ?? []} uploads={cockpit.data?.uploads ?? []} height={CHART} />
        </Col>
        <Col span={8}>
          <BurnDownChart burnDown={cockpit.data?.burnDown} height={CHART} />
        </Col>
        <Col span={8}>
          <Card size="small" title={t.worstApps} styles={{ body: { height: CHART + 24, overflow: 'hidden' } }}>
            <Table<AppStanding>
              size="small"
              pagination={false}
              rowKey={(s) => `${s.appId}:${s.testType}`}
              dataSource={worst}
              locale={{ emptyText: '—' }}
              columns={[
                { key: 'a', title: t.app, dataIndex: 'appName' },
                { key: 't', title: t.team, dataIndex: 'teamName', ellipsis: true },
                { key: 'k', title: t.testType, render: (_, s) => kind(s) },
                { key: 'v', title: t.version, dataIndex: 'version' },
                { key: 'l', title: t.fullCoverage, render: (_, s) => <Grade value={s.lineCoverage} /> },
              ]}
            />
          </Card>
        </Col>
      </Row>
    </Space>
  );
}
