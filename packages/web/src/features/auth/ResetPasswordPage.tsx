import { NoDataSchema, PATHS } from '@sextant/api';
import { Alert, Button, Card, Form, Input, Result, Typography } from 'antd';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useErrorMessage } from '../../lib/error-texts.ts';
import { useTexts } from '../../lib/i18n.tsx';
import { api } from '../../lib/session.tsx';
import { authTexts } from './texts.ts';

type Fields = { password: string; confirm: string };

/** Opened from an administrator's single-use reset link (`?token=…`). */
export default function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token');
  const [done, setDone] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const t = useTexts(authTexts);
  const errorMessage = useErrorMessage();

  if (!token) {
    return (
      <Card className="auth-card">
        <Result
          status="info"
          title={t.askForLink}
          subTitle={t.askForLinkDetail}
          extra={<Link to="/login">{t.backToSignIn}</Link>}
        />
      </Card>
    );
  }
  if (done) {
    return (
      <Card className="auth-card">
        <Result status="success" title={t.passwordChanged} extra={<Link to="/login">{t.signIn}</Link>} />
      </Card>
    );
  }

  async function submit(values: Fields) {
    setBusy(true);
    setError(null);
    try {
      await api.post(PATHS.resetPassword, NoDataSchema, { token, password: values.password });
      setDone(true);
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card className="auth-card">
      <Typography.Title level={3}>{t.choosePassword}</Typography.Title>
      {error && <Alert type="error" showIcon message={error} role="alert" style={{ marginBottom: 16 }} />}
      <Form<Fields> layout="vertical" onFinish={submit} requiredMark={false} disabled={busy}>
        <Form.Item label={t.newPassword} name="password" rules={[{ required: true, min: 8, message: t.tooShort }]}>
          <Input.Password autoFocus autoComplete="new-password" maxLength={1024} />
        </Form.Item>
        <Form.Item
          label={t.repeat}
          name="confirm"
          dependencies={['password']}
          rules={[
            { required: true, message: t.repeatRequired },
            ({ getFieldValue }) => ({
              validator: (_, value) =>
                value === getFieldValue('password') ? Promise.resolve() : Promise.reject(new Error(t.differ)),
            }),
          ]}
        >
          <Input.Password autoComplete="new-password" maxLength={1024} />
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={busy}>
          {t.changePassword}
        </Button>
      </Form>
    </Card>
  );
}
