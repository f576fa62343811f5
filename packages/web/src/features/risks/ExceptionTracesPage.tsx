import type { Screen } from '@sextant/api';
import { Card, Empty, Typography } from 'antd';
import { fill, useTexts } from '../../lib/i18n.tsx';
import { useScreenTitle } from '../../lib/screen-texts.ts';
import { riskTexts } from './texts.ts';

/** /dashboard/exceptionTraces: until traces arrive, says how to send them (issue 34). */
export default function ExceptionTracesPage({ screen }: { screen: Screen }) {
  const t = useTexts(riskTexts);
  const title = useScreenTitle(screen);
  const endpoint = `${window.location.origin}/v1/traces`;
  return (
    <Card title={title}>
      <Empty
        description={
          <>
            <Typography.Title level={5}>{t.exceptions.title}</Typography.Title>
            <Typography.Paragraph style={{ maxWidth: 640, margin: '0 auto' }}>
              {fill(t.exceptions.body, { endpoint })}
            </Typography.Paragraph>
          </>
        }
      />
    </Card>
  );
}
