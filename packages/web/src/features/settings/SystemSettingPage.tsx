import { EDITIONS, PATHS, type Settings, SettingsSchema } from '@sextant/api';
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
import { useEditionLabels } from '../../lib/edition-texts.ts';
import { useErrorMessage } from '../../lib/error-texts.ts';
import { useFieldErrors } from '../../lib/field-messages.ts';
import { useTexts } from '../../lib/i18n.tsx';
import { usePermission } from '../../lib/permissions.ts';
import { api, useSession } from '../../lib/session.tsx';
import { sessionStore } from '../../lib/storage.ts';
import { settingTexts } from './texts.ts';
import { ZentaoSettingsCard } from './ZentaoSettingsCard.tsx';

/** Grades, edition, message history and trace thresholds; saved settings apply to everyone at once. */
export default function SystemSettingPage() {
  const fieldErrorsOf = useFieldErrors();
  const { message } = App.useApp();
  const client = useQueryClient();
  const t = useTexts(settingTexts);
  const editionLabels = useEditionLabels();
  const errorMessage = useErrorMessage();
  const { refreshSettings } = useSession();
  const mayEdit = usePermission('update', 'Setting');
  const [form] = Form.useForm<Settings>();
  const [error, setError] = useState<string | null>(null);
  const current = useQuery({ queryKey: ['settings'], queryFn: () => api.get(PATHS.settings, SettingsSchema) });

  useEffect(() => {
    // ZenTao's address is saved with its account, in the card below.
    if (current.data) form.setFieldsValue(current.data);
  }, [current.data, form]);

  const save = useMutation({
    mutationFn: ({ zentaoUrl: _savedWithAccount, ...values }: Partial<Settings>) =>
      api.patch(PATHS.settings, SettingsSchema, values),
    onSuccess: (saved) => {
      setError(null);
      sessionStore.setSettings(saved);
      refreshSettings(saved);
      client.setQueryData(['settings'], saved);
      message.success(t.saved);
    },
    onError: (e) => {
      if (e instanceof ApiError) {
        const fields = fieldErrorsOf(e);
        form.setFields(
          Object.entries(fields).map(([name, text]) => ({ name: name as keyof Settings, errors: [text] })),
        );
      }
      setError(errorMessage(e));
    },
  });

  if (current.isLoading) return <Skeleton active />;
  const percent = { min: 0, max: 1, step: 0.01, style: { width: '100%' } };
  return (
    <>
      <Card>
        <Typography.Title level={4}>{t.title}</Typography.Title>
        {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} />}
        <Form form={form} layout="vertical" disabled={!mayEdit || save.isPending} onFinish={(v) => save.mutate(v)}>
          <Row gutter={24}>
            <Col xs={24} md={12}>
              <Form.Item name="excellentGrade" label={t.excellentGrade} rules={[{ required: true }]}>
                <InputNumber {...percent} />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="passingGrade" label={t.passingGrade} rules={[{ required: true }]}>
                <InputNumber {...percent} />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="licenseVersion" label={t.edition} rules={[{ required: true }]}>
                <Select options={EDITIONS.map((e) => ({ value: e, label: editionLabels[e] }))} />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="wsMaxHistoryLength" label={t.history} rules={[{ required: true }]}>
                <InputNumber min={1} max={1_000_000} style={{ width: '100%' }} />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="traceWarnThreshold" label={t.warnThreshold} rules={[{ required: true }]}>
                <InputNumber min={0.001} step={0.1} style={{ width: '100%' }} />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="traceSeriousThreshold" label={t.seriousThreshold} rules={[{ required: true }]}>
                <InputNumber min={0.001} step={0.1} style={{ width: '100%' }} />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="traceViewerUrl" label={t.traceViewerUrl}>
                <Input maxLength={2000} />
              </Form.Item>
            </Col>
            <Col xs={24}>
              <Form.Item name="showJudgment" label={t.showJudgment} valuePropName="checked">
                <Switch />
              </Form.Item>
            </Col>
          </Row>
          {mayEdit ? (
            <Button type="primary" htmlType="submit" loading={save.isPending}>
              {t.save}
            </Button>
          ) : (
            <Typography.Text type="secondary">{t.adminsOnly}</Typography.Text>
          )}
        </Form>
      </Card>
      {mayEdit && <ZentaoSettingsCard />}
    </>
  );
}
