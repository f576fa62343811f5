import type { Screen } from '@sextant/api';
import { Empty, Space } from 'antd';
import { useTexts } from '../../lib/i18n.tsx';
import { useGroupFigures } from './api/get-group-figures.ts';
import { FilterBar } from './components/FilterBar.tsx';
import { GroupFiguresCard } from './components/GroupFiguresCard.tsx';
import { ScreenHead } from './components/ScreenHead.tsx';
import { analyticsTexts } from './texts.ts';
import { useAnalyticsUrl } from './url.ts';

/**
 * /dashboard/projectAnalytic, /dashboard/versionAnalytic and the project dashboard list: per project or
 * version, its apps' latest reports summed by test type, with diff coverage and changed methods.
 */
export default function GroupAnalyticPage({ screen }: { screen: Screen }) {
  const t = useTexts(analyticsTexts);
  const url = useAnalyticsUrl();
  const by = screen.name === 'dashboard-version-analytic' ? 'versions' : 'projects';
  const figures = useGroupFigures(by, url.filter);
  const rows = figures.data ?? [];
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <ScreenHead screen={screen} error={figures.error} />
      <FilterBar url={url} />
      {figures.isSuccess && rows.length === 0 ? (
        <Empty description={t.nothing} />
      ) : (
        <GroupFiguresCard rows={rows} by={by} />
      )}
    </Space>
  );
}
