import { API, type RegisterRequest } from '@sextant/api';
import { Alert, Button, Card, Form, Input, Result, Typography } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { ApiError } from '../../lib/api-client.ts';
import { api } from '../../lib/session.tsx';

/** The access-request flow: the account stays disabled until an administrator approves it. */
export default function ApplyPage() {
  const [sent, setSent] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [form] = Form.useForm<RegisterRequest>();

  async function submit(values: RegisterRequest) {
    setBusy(true);
    setError(null);
    try {
      await api.post(API.register, values);
      setSent(values.email);
    } catch (e) {
      if (e instanceof ApiError) {
        const fields = (e.data as { fields?: Record<string, string> } | null)?.fields;
        if (fields)
          form.setFields(
            Object.entries(fields).map(([name, msg]) => ({ name: name as keyof RegisterRequest, errors: [msg] })),
          );
        setError(e.message);
      } else setError('Sextant could not be reached. Try again in a moment.');
    } finally {
      setBusy(false);
    }
  }

  if (sent) {
    return (
      <Card className="auth-card">
        <Result
          status="success"
          title="Request sent"
          subTitle={`An administrator will review it; you will be able to sign in once it is approved (${sent}).`}
          extra={<Link to="/login">Back to sign in</Link>}
        />
      </Card>
    );
  }

  return (
    <Card className="auth-card">
      <Typography.Title level={3}>Apply for access</Typography.Title>
      {error && <Alert type="error" showIcon message={error} role="alert" style={{ marginBottom: 16 }} />}
      <Form form={form} layout="vertical" onFinish={submit} requiredMark={false} disabled={busy}>
        <Form.Item
          label="Username"
          name="username"
          rules={[{ required: true, whitespace: true, message: 'Please enter your username.' }]}
        >
          <Input autoFocus maxLength={64} autoComplete="username" />
        </Form.Item>
        <Form.Item
          label="Email"
          name="email"
          rules={[
            { required: true, message: 'Please enter your email.' },
            { type: 'email', message: 'Please enter a valid email.' },
          ]}
        >
          <Input maxLength={254} autoComplete="email" />
        </Form.Item>
        <Form.Item label="Display name" name="displayName">
          <Input maxLength={128} autoComplete="name" />
        </Form.Item>
        <Form.Item label="Why do you need access?" name="reason">
          <Input.TextArea maxLength={2000} rows={3} />
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={busy}>
          Send request
        </Button>
      </Form>
      <Typography.Paragraph style={{ marginTop: 16, marginBottom: 0 }}>
        Have an account? <Link to="/login">Sign in</Link>
      </Typography.Paragraph>
    </Card>
  );
}
