import { API } from '@sextant/api';
import { Alert, Button, Card, Form, Input, Result, Typography } from 'antd';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { errorMessage } from '../../lib/api-client.ts';
import { api } from '../../lib/session.tsx';

type Fields = { password: string; confirm: string };

/** Opened from an administrator's single-use reset link (`?token=…`). */
export default function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token');
  const [done, setDone] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  if (!token) {
    return (
      <Card className="auth-card">
        <Result
          status="info"
          title="Ask an administrator for a reset link"
          subTitle="Password resets use a single-use link that an administrator issues from the user list."
          extra={<Link to="/login">Back to sign in</Link>}
        />
      </Card>
    );
  }
  if (done) {
    return (
      <Card className="auth-card">
        <Result status="success" title="Password changed" extra={<Link to="/login">Sign in</Link>} />
      </Card>
    );
  }

  async function submit(values: Fields) {
    setBusy(true);
    setError(null);
    try {
      await api.post(API.resetPassword, { token, password: values.password });
      setDone(true);
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card className="auth-card">
      <Typography.Title level={3}>Choose a new password</Typography.Title>
      {error && <Alert type="error" showIcon message={error} role="alert" style={{ marginBottom: 16 }} />}
      <Form<Fields> layout="vertical" onFinish={submit} requiredMark={false} disabled={busy}>
        <Form.Item
          label="New password"
          name="password"
          rules={[{ required: true, min: 8, message: 'At least 8 characters.' }]}
        >
          <Input.Password autoFocus autoComplete="new-password" maxLength={1024} />
        </Form.Item>
        <Form.Item
          label="Repeat the password"
          name="confirm"
          dependencies={['password']}
          rules={[
            { required: true, message: 'Please repeat the password.' },
            ({ getFieldValue }) => ({
              validator: (_, value) =>
                value === getFieldValue('password')
                  ? Promise.resolve()
                  : Promise.reject(new Error('The passwords differ.')),
            }),
          ]}
        >
          <Input.Password autoComplete="new-password" maxLength={1024} />
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={busy}>
          Change password
        </Button>
      </Form>
    </Card>
  );
}
