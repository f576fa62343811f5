import { NoDataSchema, PATHS, type RegisterRequest } from '@sextant/api';
import { Alert, Button, Card, Form, Input, Result, Typography } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { ApiError } from '../../lib/api-client.ts';
import { useErrorMessage } from '../../lib/error-texts.ts';
import { useFieldErrors } from '../../lib/field-messages.ts';
import { fill, useTexts } from '../../lib/i18n.tsx';
import { api } from '../../lib/session.tsx';
import { authTexts } from './texts.ts';

/** The access-request flow: the account stays disabled until an administrator approves it. */
export default function ApplyPage() {
  const fieldErrorsOf = useFieldErrors();
  const [sent, setSent] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [form] = Form.useForm<RegisterRequest>();
  const t = useTexts(authTexts);
  const errorMessage = useErrorMessage();

  async function submit(values: RegisterRequest) {
    setBusy(true);
    setError(null);
    try {
      await api.post(PATHS.register, NoDataSchema, values);
      setSent(values.email);
    } catch (e) {
      const fields = e instanceof ApiError ? fieldErrorsOf(e) : {};
      if (Object.keys(fields).length > 0) {
        // Shown under its field only: the same words again in a banner above the form said it twice.
        form.setFields(
          Object.entries(fields).map(([name, msg]) => ({ name: name as keyof RegisterRequest, errors: [msg] })),
        );
      } else {
        setError(errorMessage(e));
      }
    } finally {
      setBusy(false);
    }
  }

  if (sent) {
    return (
      <Card className="auth-card">
        <Result
          status="success"
          title={t.requestSent}
          subTitle={fill(t.requestSentDetail, { email: sent })}
          extra={<Link to="/login">{t.backToSignIn}</Link>}
        />
      </Card>
    );
  }

  return (
    <Card className="auth-card">
      <Typography.Title level={3}>{t.applyForAccess}</Typography.Title>
      {error && <Alert type="error" showIcon message={error} role="alert" style={{ marginBottom: 16 }} />}
      <Form form={form} layout="vertical" onFinish={submit} requiredMark={false} disabled={busy}>
        <Form.Item
          label={t.username}
          name="username"
          rules={[{ required: true, whitespace: true, message: t.usernameRequired }]}
        >
          <Input autoFocus maxLength={64} autoComplete="username" />
        </Form.Item>
        <Form.Item
          label={t.email}
          name="email"
          rules={[
            { required: true, message: t.emailRequired },
            { type: 'email', message: t.emailInvalid },
          ]}
        >
          <Input maxLength={254} autoComplete="email" />
        </Form.Item>
        <Form.Item label={t.displayName} name="displayName">
          <Input maxLength={128} autoComplete="name" />
        </Form.Item>
        <Form.Item label={t.reason} name="reason">
          <Input.TextArea maxLength={2000} rows={3} />
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={busy}>
          {t.sendRequest}
        </Button>
      </Form>
      <Typography.Paragraph style={{ marginTop: 16, marginBottom: 0 }}>
        {t.haveAccount} <Link to="/login">{t.signIn}</Link>
      </Typography.Paragraph>
    </Card>
  );
}
