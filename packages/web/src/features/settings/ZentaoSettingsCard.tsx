import { PATHS, type ZentaoConfigInput, ZentaoConfigSchema } from '@sextant/api';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Col, Form, Input, Row, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { ApiError } from '../../lib/api-client.ts';
import { useErrorMessage } from '../../lib/error-texts.ts';
import { useFieldErrors } from '../../lib/field-messages.ts';
import { useTexts } from '../../lib/i18n.tsx';
import { api } from '../../lib/session.tsx';
import { settingTexts } from './texts.ts';

const KEY = ['zentao', 'config'] as const;

/** ZenTao's address and API account (administrators only); the password is sent, never shown. */
export function ZentaoSettingsCard() {
  const t = useTexts(settingTexts).zentao;
  const { message } = App.useApp();
  const client = useQueryClient();
  const fieldErrorsOf = useFieldErrors();
  const errorMessage = useErrorMessage();
  const [form] = Form.useForm<ZentaoConfigInput>();
  const [error, setError] = useState<string | null>(null);
  const current = useQuery({ queryKey: KEY, queryFn: () => api.get(PATHS.zentaoConfig, ZentaoConfigSchema) });

  useEffect(() => {
    if (current.data) form.setFieldsValue({ url: current.data.url, account: current.data.account, password: '' });
  }, [current.data, form]);

  const save = useMutation({
    mutationFn: (values: ZentaoConfigInput) =>
      api.patch(PATHS.zentaoConfig, ZentaoConfigSchema, {
        url: values.url ?? '',
        account: values.account ?? '',
        ...(values.password ? { password: values.password } : {}),
      }),
    onSuccess: (saved) => {
      setError(null);
      client.setQueryData(KEY, saved);
      void client.invalidateQueries({ queryKey: ['zentao'] });
      void client.invalidateQueries({ queryKey: ['settings'] });
      // The saved values stand: earlier field messages go, and the password field empties again.
      form.setFields((['url', 'account', 'password'] as const).map((name) => ({ name, errors: [] })));
      form.setFieldsValue({ password: '' });
      message.success(t.saved);
    },
    onError: (e) => {
      if (e instanceof ApiError) {
        const fields = fieldErrorsOf(e);
        form.setFields(
          Object.entries(fields).map(([name, text]) => ({ name: name as keyof ZentaoConfigInput, errors: [text] })),
        );
      }
      setError(errorMessage(e));
    },
  });

  return (
    <Card style={{ marginTop: 16 }} data-testid="zentao-settings">
      <Typography.Title level={5}>{t.title}</Typography.Title>
      <Typography.Paragraph type="secondary">{t.help}</Typography.Paragraph>
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} />}
      <Form
        form={form}
        layout="vertical"
        disabled={current.isLoading || save.isPending}
        onFinish={(v) => save.mutate(v)}
      >
        <Row gutter={24}>
          <Col xs={24} md={8}>
            <Form.Item name="url" label={t.url}>
              <Input maxLength={2000} placeholder="https://zentao.example.com/" />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name="account" label={t.account}>
              <Input maxLength={100} autoComplete="off" />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item
              name="password"
              label={t.password}
              extra={current.data?.passwordSet ? t.passwordKept : undefined}
            >
              <Input.Password maxLength={200} autoComplete="new-password" />
            </Form.Item>
          </Col>
        </Row>
        <Button type="primary" htmlType="submit" loading={save.isPending}>
          {t.save}
        </Button>
      </Form>
    </Card>
  );
}
