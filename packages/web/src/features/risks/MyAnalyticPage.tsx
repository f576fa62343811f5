import type { Screen } from '@sextant/api';
import { Card, Space, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTexts } from '../../lib/i18n.tsx';
import { useScreenTitle } from '../../lib/screen-texts.ts';
import { RiskListView } from './components/RiskListView.tsx';
import { riskTexts } from './texts.ts';

/**
 * /dashboard/myAnalytic: the signed-in user's changed methods over time (`coverage`, composed in by
 * app/routes), their open risk items (blame author matched by e-mail or git identity) and the items
 * assigned to them.
 */
export function MyAnalytic({ screen, coverage }: { screen: Screen; coverage?: ReactNode }) {
  const t = useTexts(riskTexts);
  const title = useScreenTitle(screen);
  return (
    <Space direction="vertical" style={{ width: '100%' }} size={16}>
      <Typography.Title level={4} style={{ margin: 0 }}>
        {title}
      </Typography.Title>
      {coverage}
      <Card title={t.mine.openRisks}>
        <RiskListView search={{ mine: true, state: 'observing,pending' }} />
      </Card>
      <Card title={t.mine.assigned}>
        <RiskListView search={{ assignedToMe: true, state: 'judged' }} />
      </Card>
      <Card title={t.mine.changed}>
        <RiskListView search={{ mine: true, sortBy: 'createdAt' }} />
      </Card>
    </Space>
  );
}
