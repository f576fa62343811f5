import { API, EDITION_LABELS, EDITIONS, type Settings } from '@sextant/api';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Card,
  Col,
  Form,
  Input,
  InputNumber,
  Row,
  Select,
  Skeleton,
  Switch,
  Typography,
} from 'antd';
import { useEffect, useState } from 'react';
import { ApiError } from '../../lib/api-client.ts';
import { usePermission } from '../../lib/permissions.ts';
import { api, useSession } from '../../lib/session.tsx';
import { sessionStore } from '../../lib/storage.ts';

/** Grades, edition, message history and trace thresholds; saved settings apply to everyone at once. */
export default function SystemSettingPage() {
  const { message } = App.useApp();
  const client = useQueryClient();
  const { refreshSettings } = useSession();
  const mayEdit = usePermission('update', 'Setting');
  const [form] = Form.useForm<Settings>();
  const [error, setError] = useState<string | null>(null);
  const current = useQuery({ queryKey: ['settings'], queryFn: () => api.get<Settings>(API.settings) });

  useEffect(() => {
    if (current.data) form.setFieldsValue(current.data);
  }, [current.data, form]);

  const save = useMutation({
    mutationFn: (values: Partial<Settings>) => api.patch<Settings>(API.settings, values),
    onSuccess: (saved) => {
      setError(null);
      sessionStore.setSettings(saved);
      refreshSettings(saved);
      client.setQueryData(['settings'], saved);
      message.success('Settings saved.');
    },
    onError: (e) => {
      if (e instanceof ApiError) {
        const fields = (e.data as { fields?: Record<string, string> } | null)?.fields ?? {};
        form.setFields(
          Object.entries(fields).map(([name, text]) => ({ name: name as keyof Settings, errors: [text] })),
        );
        setError(e.message);
      } else setError('Sextant could not be reached. Try again in a moment.');
    },
  });

  if (current.isLoading) return <Skeleton active />;
  const percent = { min: 0, max: 1, step: 0.01, style: { width: '100%' } };
  return (
    <Card>
      <Typography.Title level={4}>System settings</Typography.Title>
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} />}
      <Form form={form} layout="vertical" disabled={!mayEdit || save.isPending} onFinish={(v) => save.mutate(v)}>
        <Row gutter={24}>
          <Col xs={24} md={12}>
            <Form.Item
              name="excellentGrade"
              label="Excellent grade (fraction, green at or above)"
              rules={[{ required: true }]}
            >
              <InputNumber {...percent} />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item
              name="passingGrade"
              label="Passing grade (fraction, yellow at or above)"
              rules={[{ required: true }]}
            >
              <InputNumber {...percent} />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="licenseVersion" label="Licence edition" rules={[{ required: true }]}>
              <Select options={EDITIONS.map((e) => ({ value: e, label: EDITION_LABELS[e] }))} />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="wsMaxHistoryLength" label="Message history per report" rules={[{ required: true }]}>
              <InputNumber min={1} max={1_000_000} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="traceWarnThreshold" label="Trace warning threshold (seconds)" rules={[{ required: true }]}>
              <InputNumber min={0.001} step={0.1} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item
              name="traceSeriousThreshold"
              label="Trace serious threshold (seconds)"
              rules={[{ required: true }]}
            >
              <InputNumber min={0.001} step={0.1} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="zentaoUrl" label="ZenTao URL">
              <Input maxLength={2000} placeholder="https://zentao.example.com" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="traceViewerUrl" label="Trace viewer URL (empty: this host on port 5173)">
              <Input maxLength={2000} />
            </Form.Item>
          </Col>
          <Col xs={24}>
            <Form.Item name="showJudgment" label="Show quality-gate judgment" valuePropName="checked">
              <Switch />
            </Form.Item>
          </Col>
        </Row>
        {mayEdit ? (
          <Button type="primary" htmlType="submit" loading={save.isPending}>
            Save settings
          </Button>
        ) : (
          <Typography.Text type="secondary">Only administrators can change these.</Typography.Text>
        )}
      </Form>
    </Card>
  );
}
