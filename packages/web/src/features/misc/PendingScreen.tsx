import type { Screen } from '@sextant/api';
import { Card, Empty, Typography } from 'antd';
import { useTexts } from '../../lib/i18n.tsx';
import { useScreenTitle } from '../../lib/screen-texts.ts';
import { miscTexts } from './texts.ts';
import { upcomingTexts } from './upcoming-texts.ts';

/** An honest empty state: the route, guard, title and menu entry exist; the content comes later. */
export default function PendingScreen({ screen }: { screen: Screen }) {
  const t = useTexts(miscTexts);
  const upcoming: Record<string, string> = useTexts(upcomingTexts);
  const title = useScreenTitle(screen);
  return (
    <Card>
      <Typography.Title level={4}>{title}</Typography.Title>
      <Empty
        description={
          <>
            <Typography.Paragraph>{t.nothingYet}</Typography.Paragraph>
            <Typography.Paragraph type="secondary">{upcoming[screen.name] ?? t.beingBuilt}</Typography.Paragraph>
          </>
        }
      />
    </Card>
  );
}
