import { API, type LoginResponse } from '@sextant/api';
import { Alert, Button, Card, Form, Input, Typography } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../lib/api-client.ts';
import { api, useSession } from '../../lib/session.tsx';

type Credentials = { username: string; password: string };

export default function LoginPage() {
  const { signIn } = useSession();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(values: Credentials) {
    setBusy(true);
    setError(null);
    try {
      const answer = await api.post<LoginResponse>(API.login, values);
      // The screen guard now sends the signed-in user on (navigation rules 3 and 4).
      signIn(answer);
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card className="auth-card">
      <Typography.Title level={3}>Sign in to Sextant</Typography.Title>
      <Typography.Paragraph type="secondary">
        Coverage of the code you changed, by the tests you ran.
      </Typography.Paragraph>
      {error && <Alert type="error" showIcon message={error} role="alert" style={{ marginBottom: 16 }} />}
      <Form<Credentials> layout="vertical" onFinish={submit} requiredMark={false} disabled={busy}>
        <Form.Item
          label="Username or email"
          name="username"
          rules={[{ required: true, whitespace: true, message: 'Please enter your username.' }]}
        >
          <Input autoFocus autoComplete="username" maxLength={254} />
        </Form.Item>
        <Form.Item
          label="Password"
          name="password"
          rules={[{ required: true, message: 'Please enter your password.' }]}
        >
          <Input.Password autoComplete="current-password" maxLength={1024} />
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={busy}>
          Sign in
        </Button>
      </Form>
      <Typography.Paragraph style={{ marginTop: 16, marginBottom: 0 }}>
        New here? <Link to="/apply">Apply for access</Link>
      </Typography.Paragraph>
    </Card>
  );
}
