import type { AgentsNow, RiskBurnDown } from '@sextant/api';
import { useLocale, useTexts } from '../../../lib/i18n.tsx';
import { analyticsTexts } from '../texts.ts';
import { ChartCard } from './ChartCard.tsx';
import { plain } from './echarts.ts';

/** Risks opened and closed per day (or week), and how many were open at its end (issue 35). */
export function BurnDownChart({ burnDown, height }: { burnDown: RiskBurnDown | undefined; height?: number }) {
  const t = useTexts(analyticsTexts);
  const points = burnDown?.points ?? [];
  const openLabel = burnDown?.bucket === 'week' ? t.risksOpenWeek : t.risksOpen;
  const label = burnDown?.bucket === 'week' ? t.week : t.day;
  const option = {
    animation: false,
    grid: { left: 40, right: 16, top: 32, bottom: 24 },
    legend: { top: 0 },
    tooltip: { trigger: 'axis', renderMode: 'richText' },
    xAxis: { type: 'category', data: points.map((p) => p.day.slice(5)) },
    yAxis: { type: 'value', minInterval: 1 },
    series: [
      { name: t.risksOpened, type: 'bar', barMaxWidth: 16, color: '#ea5455', data: points.map((p) => p.opened) },
      { name: t.risksClosed, type: 'bar', barMaxWidth: 16, color: '#28c76f', data: points.map((p) => p.closed) },
      { name: openLabel, type: 'line', step: 'end', color: '#ff9f43', data: points.map((p) => p.open) },
    ],
  };
  return (
    <ChartCard
      title={t.burnDown}
      name="risk-burn-down"
      option={option}
      height={height}
      table={{
        rows: points,
        rowKey: (p) => p.day,
        columns: [
          { key: 'd', title: label, dataIndex: 'day' },
          { key: 'o', title: t.risksOpened, dataIndex: 'opened', align: 'right' },
          { key: 'c', title: t.risksClosed, dataIndex: 'closed', align: 'right' },
          { key: 'n', title: openLabel, dataIndex: 'open', align: 'right' },
        ],
        csv: {
          header: [label, t.risksOpened, t.risksClosed, openLabel],
          row: (p) => [p.day, p.opened, p.closed, p.open],
        },
      }}
    />
  );
}

/** Per app and environment: agents alive, failing and silent now (their last heart-beats). */
export function AgentsChart({ agents, height }: { agents: AgentsNow[]; height?: number }) {
  const t = useTexts(analyticsTexts);
  const { formatDate } = useLocale();
  const name = (a: AgentsNow) => `${a.appName} · ${a.envType}`;
  const silent = (a: AgentsNow) => a.agents - a.alive - a.failing;
  const option = {
    animation: false,
    grid: { left: 140, right: 16, top: 28, bottom: 24 },
    legend: { top: 0 },
    tooltip: { trigger: 'axis', renderMode: 'richText' },
    xAxis: { type: 'value', minInterval: 1 },
    yAxis: { type: 'category', inverse: true, data: agents.map((a) => plain(name(a))) },
    series: [
      {
        name: t.agentsAlive,
        type: 'bar',
        stack: 'a',
        barMaxWidth: 28,
        color: '#28c76f',
        data: agents.map((a) => a.alive),
      },
      {
        name: t.agentsFailing,
        type: 'bar',
        stack: 'a',
        barMaxWidth: 28,
        color: '#ea5455',
        data: agents.map((a) => a.failing),
      },
      { name: t.agentsSilent, type: 'bar', stack: 'a', barMaxWidth: 28, color: '#b9b9c3', data: agents.map(silent) },
    ],
  };
  return (
    <ChartCard
      title={t.agentsTitle}
      name="agents"
      option={agents.length > 0 ? option : { title: { text: t.noAgents, left: 'center', top: 'middle' } }}
      height={height}
      table={{
        rows: agents,
        rowKey: (a) => `${a.appId}:${a.envType}`,
        columns: [
          { key: 'a', title: t.app, dataIndex: 'appName' },
          { key: 'e', title: t.environment, dataIndex: 'envType' },
          { key: 'n', title: t.agentsKnown, dataIndex: 'agents', align: 'right' },
          { key: 'l', title: t.agentsAlive, dataIndex: 'alive', align: 'right' },
          { key: 'f', title: t.agentsFailing, dataIndex: 'failing', align: 'right' },
          { key: 'h', title: t.lastHeartbeat, render: (_, a) => formatDate(a.lastHeartbeatAt) },
        ],
        csv: {
          header: [t.app, t.environment, t.agentsKnown, t.agentsAlive, t.agentsFailing, t.lastHeartbeat],
          row: (a) => [a.appName, a.envType, a.agents, a.alive, a.failing, a.lastHeartbeatAt],
        },
      }}
    />
  );
}
