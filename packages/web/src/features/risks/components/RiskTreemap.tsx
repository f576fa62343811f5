import type { TreemapMethod, TreemapStatus } from '@sextant/api';
import { Card, Empty, Space, Tag, Typography } from 'antd';
import { TreemapChart } from 'echarts/charts';
import { TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import ReactEChartsCore from 'echarts-for-react/esm/core';
import { type ReactNode, useMemo } from 'react';
import { useNavigate } from 'react-router';
import { fill, useTexts } from '../../../lib/i18n.tsx';
import { useRiskTreemap } from '../api/get-treemap.ts';
import { riskTexts } from '../texts.ts';
import { type RiskSearch, riskSourcePath } from '../url.ts';

echarts.use([TreemapChart, TooltipComponent, CanvasRenderer]);

const COLOURS: Record<TreemapStatus, string> = {
  covered: '#28c76f',
  'changed-uncovered': '#ff9f43',
  'new-uncovered': '#ea5455',
};
/** Method and class names are the code's words; in rich text braces and bars are styles. */
const plain = (text: string) => text.replace(/[{}|]/g, '');
const shortClass = (name: string) => name.slice(name.lastIndexOf('.') + 1).replace(/\//g, '.');

type Leaf = { name: string; value: number; itemStyle: { color: string }; tip: string; link: string };

/** The home screen's treemap (issue 34): the selected version's changed methods, grouped by class. */
export function RiskTreemap({ search }: { search: RiskSearch }) {
  const t = useTexts(riskTexts).treemap;
  const navigate = useNavigate();
  const { appId, version, testType } = search;
  const query = useRiskTreemap(appId, version, testType);
  const data = query.data;
  const labels = useMemo(
    (): Record<TreemapStatus, string> => ({
      covered: t.covered,
      'changed-uncovered': t.changedUncovered,
      'new-uncovered': t.newUncovered,
    }),
    [t],
  );
  const option = useMemo(() => {
    if (!data?.reportId) return null;
    const reportId = data.reportId;
    const leaf = (m: TreemapMethod): Leaf => ({
      name: plain(m.name.replace(/\(.*$/, '')),
      value: Math.max(1, m.changedLines),
      itemStyle: { color: COLOURS[m.status] },
      tip: fill(t.tip, {
        method: plain(`${shortClass(m.className)}.${m.name}`),
        changed: m.changedLines,
        covered: m.lineCovered,
        total: m.lineTotal,
        status: labels[m.status],
      }),
      link: riskSourcePath({ reportId, filePath: m.filePath, startLine: m.startLine }),
    });
    const byClass = new Map<string, Leaf[]>();
    for (const m of data.methods) byClass.set(m.className, [...(byClass.get(m.className) ?? []), leaf(m)]);
    const tree = [...byClass].map(([name, children]) => ({ name: plain(shortClass(name)), children }));
    return {
      animation: false,
      tooltip: {
        renderMode: 'richText',
        formatter: (p: { data: Partial<Leaf> & { name: string } }) => p.data.tip ?? p.data.name,
      },
      series: [
        {
          type: 'treemap',
          data: tree,
          roam: false,
          nodeClick: false,
          breadcrumb: { show: false },
          top: 4,
          left: 4,
          right: 4,
          bottom: 4,
          label: { show: true, fontSize: 11 },
          upperLabel: { show: true, height: 18, color: '#262626', fontSize: 11 },
          levels: [
            { itemStyle: { borderColor: '#fff', borderWidth: 2, gapWidth: 2 } },
            { itemStyle: { borderColor: '#e0e0e0', borderWidth: 1, gapWidth: 1 }, color: ['#8c8c8c'] },
          ],
        },
      ],
    };
  }, [data, t, labels]);

  let body: ReactNode;
  if (!appId || !version) body = <Typography.Text type="secondary">{t.pick}</Typography.Text>;
  else if (data && !option) body = <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t.empty} />;
  else
    body = (
      <>
        <Space size={4} style={{ marginBottom: 8 }}>
          {(Object.keys(COLOURS) as TreemapStatus[]).map((s) => (
            <Tag key={s} color={COLOURS[s]}>
              {labels[s]}
            </Tag>
          ))}
        </Space>
        {option && (
          <ReactEChartsCore
            echarts={echarts}
            option={option}
            style={{ height: 320 }}
            notMerge
            lazyUpdate
            onEvents={{ click: (p: { data?: { link?: string } }) => p.data?.link && navigate(p.data.link) }}
          />
        )}
      </>
    );
  return (
    <Card
      size="small"
      title={t.title}
      loading={Boolean(appId && version) && query.isLoading}
      style={{ marginBottom: 16 }}
    >
      {body}
    </Card>
  );
}
