import type { Screen } from '@sextant/api';
import { Alert, Card, Space, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useErrorMessage } from '../../../lib/error-texts.ts';
import { useScreenTitle } from '../../../lib/screen-texts.ts';

/** The screen's title with what sits beside it, and the load error if any. */
export function ScreenHead({ screen, extra, error }: { screen: Screen; extra?: ReactNode; error?: unknown }) {
  const title = useScreenTitle(screen);
  const errorMessage = useErrorMessage();
  return (
    <>
      <Card size="small">
        <Space style={{ width: '100%', justifyContent: 'space-between' }} wrap>
          <Typography.Title level={4} style={{ margin: 0 }}>
            {title}
          </Typography.Title>
          {extra}
        </Space>
      </Card>
      {error ? <Alert type="error" showIcon message={errorMessage(error)} /> : null}
    </>
  );
}
