import type { Screen } from '@sextant/api';
import { Card, Empty, Typography } from 'antd';
import { UPCOMING } from './upcoming.ts';

/** An honest empty state: the route, guard, title and menu entry exist; the content comes later. */
export default function PendingScreen({ screen }: { screen: Screen }) {
  return (
    <Card>
      <Typography.Title level={4}>{screen.title}</Typography.Title>
      <Empty
        description={
          <>
            <Typography.Paragraph>Nothing here yet.</Typography.Paragraph>
            <Typography.Paragraph type="secondary">
              {UPCOMING[screen.name] ?? 'This screen is being built.'}
            </Typography.Paragraph>
          </>
        }
      />
    </Card>
  );
}
