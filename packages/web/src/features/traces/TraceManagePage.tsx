import { ADMIN_API, API, type App as AppRow, type Settings } from '@sextant/api';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Col, Form, Input, InputNumber, Modal, Row, Table, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { errorMessage, fieldErrors } from '../../lib/api-client.ts';
import { usePermission } from '../../lib/permissions.ts';
import { api, useSession } from '../../lib/session.tsx';

type TraceSettings = Pick<Settings, 'traceRetentionDays' | 'traceWarnThreshold' | 'traceSeriousThreshold'>;

/** Tracing sources (each app sends traces with its ingestion token), retention and the slow-call thresholds. */
export default function TraceManagePage() {
  const { message } = App.useApp();
  const client = useQueryClient();
  const { refreshSettings } = useSession();
  const mayEditSettings = usePermission('update', 'Setting');
  const mayRotate = usePermission('update', 'App');
  const [form] = Form.useForm<TraceSettings>();
  const [token, setToken] = useState<{ app: string; token: string } | null>(null);
  const settings = useQuery({ queryKey: ['settings'], queryFn: () => api.get<Settings>(API.settings) });
  const apps = useQuery({
    queryKey: [ADMIN_API.apps, 'trace-sources'],
    queryFn: () =>
      api.get<{ items: AppRow[]; total: number }>(ADMIN_API.apps, { query: { perPage: 200, sortBy: 'name' } }),
  });
  useEffect(() => {
    if (settings.data) form.setFieldsValue(settings.data);
  }, [settings.data, form]);

  const save = useMutation({
    mutationFn: (values: TraceSettings) => api.patch<Settings>(API.settings, values),
    onSuccess: (saved) => {
      refreshSettings(saved);
      client.setQueryData(['settings'], saved);
      message.success('Trace settings saved.');
    },
    onError: (e) => {
      form.setFields(
        Object.entries(fieldErrors(e)).map(([name, text]) => ({ name: name as keyof TraceSettings, errors: [text] })),
      );
      message.error(errorMessage(e));
    },
  });
  const rotate = useMutation({
    mutationFn: (app: AppRow) => api.post<AppRow & { ingestionToken: string }>(ADMIN_API.appRotateToken(app.id)),
    onSuccess: (answer) => setToken({ app: answer.name, token: answer.ingestionToken }),
    onError: (e) => message.error(errorMessage(e)),
  });

  return (
    <Row gutter={[24, 24]}>
      <Col xs={24} lg={9}>
        <Card>
          <Typography.Title level={4}>Retention and thresholds</Typography.Title>
          <Form form={form} layout="vertical" disabled={!mayEditSettings} onFinish={(v) => save.mutate(v)}>
            <Form.Item name="traceRetentionDays" label="Keep traces for (days)" rules={[{ required: true }]}>
              <InputNumber min={1} max={3650} style={{ width: '100%' }} />
            </Form.Item>
            <Form.Item name="traceWarnThreshold" label="Slow call warning (seconds)" rules={[{ required: true }]}>
              <InputNumber min={0.001} step={0.1} style={{ width: '100%' }} />
            </Form.Item>
            <Form.Item name="traceSeriousThreshold" label="Slow call serious (seconds)" rules={[{ required: true }]}>
              <InputNumber min={0.001} step={0.1} style={{ width: '100%' }} />
            </Form.Item>
            {mayEditSettings && (
              <Button type="primary" htmlType="submit" loading={save.isPending}>
                Save
              </Button>
            )}
          </Form>
        </Card>
      </Col>
      <Col xs={24} lg={15}>
        <Card>
          <Typography.Title level={4}>Trace sources</Typography.Title>
          <Typography.Paragraph type="secondary">
            Each app sends OTLP traces with its ingestion token: set{' '}
            <Typography.Text code>OTEL_EXPORTER_OTLP_ENDPOINT</Typography.Text> to this server and the token as a bearer
            header.
          </Typography.Paragraph>
          {apps.error && <Alert type="error" showIcon message={apps.error.message} />}
          <Table<AppRow>
            rowKey="id"
            size="small"
            loading={apps.isLoading}
            dataSource={apps.data?.items ?? []}
            locale={{ emptyText: 'No apps yet: register one under System → Apps.' }}
            pagination={{ pageSize: 10, hideOnSinglePage: true }}
            columns={[
              { title: 'App', dataIndex: 'name' },
              { title: 'Team', dataIndex: 'teamName' },
              {
                title: 'Token issued',
                dataIndex: 'tokenIssuedAt',
                render: (d: string) => new Date(d).toLocaleString(),
              },
              ...(mayRotate
                ? [
                    {
                      title: 'Token',
                      key: 'rotate',
                      render: (_: unknown, app: AppRow) => (
                        <Button size="small" onClick={() => rotate.mutate(app)}>
                          Rotate
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
        title={`Ingestion token for ${token?.app ?? ''}`}
        footer={null}
        onCancel={() => setToken(null)}
      >
        <Typography.Paragraph>Copy it now; Sextant keeps only its hash.</Typography.Paragraph>
        <Input.TextArea readOnly autoSize aria-label="Ingestion token" value={token?.token ?? ''} />
      </Modal>
    </Row>
  );
}
