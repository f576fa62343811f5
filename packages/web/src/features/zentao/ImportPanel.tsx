import { CloudDownloadOutlined } from '@ant-design/icons';
import { PATHS, ZentaoImportSummarySchema, type ZentaoStatus } from '@sextant/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Space, Typography } from 'antd';
import { errorMessage } from '../../lib/api-client.ts';
import { useErrorMessage } from '../../lib/error-texts.ts';
import { useLocale, useTexts } from '../../lib/i18n.tsx';
import { usePermission } from '../../lib/permissions.ts';
import { api } from '../../lib/session.tsx';
import { ImportSummary } from './ImportSummary.tsx';
import { ZENTAO_STATUS_KEY } from './status.ts';
import { zentaoTexts } from './texts.ts';

/** The import: what it does, the button (administrators), its failure, and the last run's summary. */
export function ImportPanel({ status }: { status: ZentaoStatus }) {
  const t = useTexts(zentaoTexts);
  const { locale } = useLocale();
  const { message } = App.useApp();
  const client = useQueryClient();
  const errorText = useErrorMessage();
  const mayImport = usePermission('update', 'Setting');
  const run = useMutation({
    mutationFn: () => api.post(PATHS.zentaoImport, ZentaoImportSummarySchema),
    onSuccess: (summary) => {
      client.setQueryData<ZentaoStatus>(ZENTAO_STATUS_KEY, (old) => old && { ...old, lastImport: summary });
      message.success(t.imported);
    },
  });
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
        {t.importHelp}
      </Typography.Paragraph>
      {mayImport &&
        (status.importReady ? (
          <Button
            type="primary"
            icon={<CloudDownloadOutlined />}
            loading={run.isPending}
            onClick={() => run.mutate()}
            data-testid="zentao-import"
          >
            {run.isPending ? t.importing : t.importNow}
          </Button>
        ) : (
          <Alert type="info" showIcon message={t.importNeedsAccount} />
        ))}
      {run.error && (
        <Alert
          type="error"
          showIcon
          message={errorText(run.error)}
          // ZenTao's own reason, as the server wrote it, whatever the language.
          description={locale === 'en' ? undefined : errorMessage(run.error)}
        />
      )}
      {status.lastImport ? (
        <ImportSummary summary={status.lastImport} />
      ) : (
        <Typography.Text type="secondary">{t.neverImported}</Typography.Text>
      )}
    </Space>
  );
}
