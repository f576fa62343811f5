import { LoginResponseSchema, PATHS } from '@sextant/api';
import { Alert, Button, Card, Form, Input, Typography } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { useErrorMessage } from '../../lib/error-texts.ts';
import { useTexts } from '../../lib/i18n.tsx';
import { api, useSession } from '../../lib/session.tsx';
import { authTexts } from './texts.ts';

type Credentials = { username: string; password: string };

export default function LoginPage() {
  const { signIn } = useSession();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const t = useTexts(authTexts);
  const errorMessage = useErrorMessage();

  async function submit(values: Credentials) {
    setBusy(true);
    setError(null);
    try {
      const answer = await api.post(PATHS.login, LoginResponseSchema, values);
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
      <Typography.Title level={3}>{t.signInTitle}</Typography.Title>
      <Typography.Paragraph type="secondary">{t.tagline}</Typography.Paragraph>
      {error && <Alert type="error" showIcon message={error} role="alert" style={{ marginBottom: 16 }} />}
      <Form<Credentials> layout="vertical" onFinish={submit} requiredMark={false} disabled={busy}>
        <Form.Item
          label={t.usernameOrEmail}
          name="username"
          rules={[{ required: true, whitespace: true, message: t.usernameRequired }]}
        >
          <Input autoFocus autoComplete="username" maxLength={254} />
        </Form.Item>
        <Form.Item label={t.password} name="password" rules={[{ required: true, message: t.passwordRequired }]}>
          <Input.Password autoComplete="current-password" maxLength={1024} />
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={busy}>
          {t.signIn}
        </Button>
      </Form>
      <Typography.Paragraph style={{ marginTop: 16, marginBottom: 0 }}>
        {t.newHere} <Link to="/apply">{t.applyForAccess}</Link>
      </Typography.Paragraph>
    </Card>
  );
}
