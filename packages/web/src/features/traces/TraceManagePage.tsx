import {
  type App as AppRow,
  AppSchema,
  AppWithTokenSchema,
  PATHS,
  pageSchema,
  pathTo,
  type Settings,
  SettingsSchema,
} from '@sextant/api';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Col, Form, Input, InputNumber, Modal, Row, Table, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useErrorMessage } from '../../lib/error-texts.ts';
import { useFieldErrors } from '../../lib/field-messages.ts';
import { fill, useLocale, useTexts } from '../../lib/i18n.tsx';
import { usePermission } from '../../lib/permissions.ts';
import { api, useSession } from '../../lib/session.tsx';
import { traceTexts } from './texts.ts';

type TraceSettings = Pick<Settings, 'traceRetentionDays' | 'traceWarnThreshold' | 'traceSeriousThreshold'>;

/** Tracing sources (each app sends traces with its ingestion token), retention and the slow-call thresholds. */
export default function TraceManagePage() {
  const fieldErrorsOf = useFieldErrors();
  const { message } = App.useApp();
  const client = useQueryClient();
  const t = useTexts(traceTexts);
  const { formatDate } = useLocale();
  const errorMessage = useErrorMessage();
  const { refreshSettings } = useSession();
  const mayEditSettings = usePermission('update', 'Setting');
  const mayRotate = usePermission('update', 'App');
  const [form] = Form.useForm<TraceSettings>();
  const [token, setToken] = useState<{ app: string; token: string } | null>(null);
  const settings = useQuery({ queryKey: ['settings'], queryFn: () => api.get(PATHS.settings, SettingsSchema) });
  const apps = useQuery({
    queryKey: [PATHS.apps, 'trace-sources'],
    queryFn: () => api.get(PATHS.apps, pageSchema(AppSchema), { query: { perPage: 200, sortBy: 'name' } }),
  });
  useEffect(() => {
    if (settings.data) form.setFieldsValue(settings.data);
  }, [settings.data, form]);

  const save = useMutation({
    mutationFn: (values: TraceSettings) => api.patch(PATHS.settings, SettingsSchema, values),
    onSuccess: (saved) => {
      refreshSettings(saved);
      client.setQueryData(['settings'], saved);
      message.success(t.saved);
    },
    onError: (e) => {
      form.setFields(
        Object.entries(fieldErrorsOf(e)).map(([name, text]) => ({ name: name as keyof TraceSettings, errors: [text] })),
      );
      message.error(errorMessage(e));
    },
  });
  const rotate = useMutation({
    mutationFn: (app: AppRow) => api.post(pathTo(PATHS.appRotateToken, { id: app.id }), AppWithTokenSchema),
    onSuccess: (answer) => setToken({ app: answer.name, token: answer.ingestionToken }),
    onError: (e) => message.error(errorMessage(e)),
  });

  return (
    <Row gutter={[24, 24]}>
      <Col xs={24} lg={9}>
        <Card>
          <Typography.Title level={4}>{t.retention}</Typography.Title>
          <Form form={form} layout="vertical" disabled={!mayEditSettings} onFinish={(v) => save.mutate(v)}>
            <Form.Item name="traceRetentionDays" label={t.keepDays} rules={[{ required: true }]}>
              <InputNumber min={1} max={3650} style={{ width: '100%' }} />
            </Form.Item>
            <Form.Item name="traceWarnThreshold" label={t.warn} rules={[{ required: true }]}>
              <InputNumber min={0.001} step={0.1} style={{ width: '100%' }} />
            </Form.Item>
            <Form.Item name="traceSeriousThreshold" label={t.serious} rules={[{ required: true }]}>
              <InputNumber min={0.001} step={0.1} style={{ width: '100%' }} />
            </Form.Item>
            {mayEditSettings && (
              <Button type="primary" htmlType="submit" loading={save.isPending}>
                {t.save}
              </Button>
            )}
          </Form>
        </Card>
      </Col>
      <Col xs={24} lg={15}>
        <Card>
          <Typography.Title level={4}>{t.sources}</Typography.Title>
          <Typography.Paragraph type="secondary">
            {t.sourcesBefore} <Typography.Text code>OTEL_EXPORTER_OTLP_ENDPOINT</Typography.Text> {t.sourcesAfter}
          </Typography.Paragraph>
          {apps.error && <Alert type="error" showIcon message={errorMessage(apps.error)} />}
          <Table<AppRow>
            rowKey="id"
            size="small"
            loading={apps.isLoading}
            dataSource={apps.data?.items ?? []}
            locale={{ emptyText: t.noApps }}
            pagination={{ pageSize: 10, hideOnSinglePage: true }}
            columns={[
              { title: t.app, dataIndex: 'name' },
              { title: t.team, dataIndex: 'teamName' },
              {
                title: t.tokenIssued,
                dataIndex: 'tokenIssuedAt',
                render: (d: string) => formatDate(d),
              },
              ...(mayRotate
                ? [
                    {
                      title: t.token,
                      key: 'rotate',
                      render: (_: unknown, app: AppRow) => (
                        <Button size="small" onClick={() => rotate.mutate(app)}>
                          {t.rotate}
                        </Button>
                      ),
                    },
                  ]
                : []),
            ]}
          />
        </Card>
      </Col>
      <Modal
        open={token !== null}
        title={fill(t.tokenFor, { app: token?.app ?? '' })}
        footer={null}
        onCancel={() => setToken(null)}
      >
        <Typography.Paragraph>{t.copyNow}</Typography.Paragraph>
        <Input.TextArea readOnly autoSize aria-label={t.ingestionToken} value={token?.token ?? ''} />
      </Modal>
    </Row>
  );
}
