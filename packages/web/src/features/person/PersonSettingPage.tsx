import { MeResponseSchema, NoDataSchema, PATHS, ProfileSchema } from '@sextant/api';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Col, Form, Input, Radio, Row, Skeleton, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { GitIdentitiesEditor } from '../../components/git-identities/GitIdentitiesEditor.tsx';
import { useErrorMessage } from '../../lib/error-texts.ts';
import { useFieldErrors } from '../../lib/field-messages.ts';
import { fill, LOCALE_LABELS, LOCALES, type Locale, useLocale, useTexts } from '../../lib/i18n.tsx';
import { LAYOUTS, SKINS, usePreferences } from '../../lib/preferences.tsx';
import { api } from '../../lib/session.tsx';
import { SessionsCard } from './SessionsCard.tsx';
import { personTexts } from './texts.ts';

type ProfileFields = { displayName: string; email: string; layout?: string; skin?: string; language?: Locale };
type PasswordFields = { currentPassword: string; newPassword: string; confirm: string };

type Wording = { errorText: (e: unknown) => string; fieldsOf: (e: unknown) => Record<string, string> };

function failure(e: unknown, w: Wording): { message: string; fields: Record<string, string> } {
  return { message: w.errorText(e), fields: w.fieldsOf(e) };
}

/** The signed-in user's own name, email, password and preferred layout and skin. */
export default function PersonSettingPage() {
  const wording = { errorText: useErrorMessage(), fieldsOf: useFieldErrors() };
  const { message } = App.useApp();
  const client = useQueryClient();
  const prefs = usePreferences();
  const t = useTexts(personTexts);
  const { locale, setLocale } = useLocale();
  const me = useQuery({ queryKey: ['me'], queryFn: () => api.get(PATHS.me, MeResponseSchema) });
  const [profileForm] = Form.useForm<ProfileFields>();
  const [passwordForm] = Form.useForm<PasswordFields>();
  const [profileError, setProfileError] = useState<string | null>(null);
  const [passwordError, setPasswordError] = useState<string | null>(null);

  useEffect(() => {
    const p = me.data?.profile;
    if (p)
      profileForm.setFieldsValue({
        displayName: p.displayName,
        email: p.email,
        layout: p.preferences.layout ?? prefs.layout,
        skin: p.preferences.skin ?? prefs.skin,
        language: p.preferences.language ?? locale,
      });
  }, [me.data, profileForm, prefs.layout, prefs.skin, locale]);

  const saveProfile = useMutation({
    mutationFn: (v: ProfileFields) =>
      api.patch(PATHS.myProfile, ProfileSchema, {
        displayName: v.displayName,
        email: v.email,
        preferences: { layout: v.layout, skin: v.skin, language: v.language },
      }),
    onSuccess: (profile) => {
      setProfileError(null);
      const { layout, skin, language } = profile.preferences;
      if (language) setLocale(language);
      prefs.update({
        ...(layout === 'vertical' || layout === 'horizontal' ? { layout } : {}),
        ...(skin && (SKINS as readonly string[]).includes(skin) ? { skin: skin as (typeof SKINS)[number] } : {}),
      });
      void client.invalidateQueries({ queryKey: ['me'] });
      message.success(t.saved);
    },
    onError: (e) => {
      const { message: text, fields } = failure(e, wording);
      profileForm.setFields(
        Object.entries(fields).map(([name, err]) => ({ name: name as keyof ProfileFields, errors: [err] })),
      );
      setProfileError(text);
    },
  });

  const changePassword = useMutation({
    mutationFn: (v: PasswordFields) =>
      api.post(PATHS.myPassword, NoDataSchema, { currentPassword: v.currentPassword, newPassword: v.newPassword }),
    onSuccess: () => {
      setPasswordError(null);
      passwordForm.resetFields();
      message.success(t.changed);
    },
    onError: (e) => {
      const { message: text, fields } = failure(e, wording);
      passwordForm.setFields(
        Object.entries(fields).map(([name, err]) => ({ name: name as keyof PasswordFields, errors: [err] })),
      );
      setPasswordError(text);
    },
  });

  if (me.isLoading) return <Skeleton active />;
  return (
    <Row gutter={[24, 24]}>
      <Col xs={24} lg={14}>
        <Card>
          <Typography.Title level={4}>
            {fill(t.profile, { username: me.data?.profile.username ?? '' })}
          </Typography.Title>
          {profileError && <Alert type="error" showIcon message={profileError} style={{ marginBottom: 16 }} />}
          <Form
            form={profileForm}
            layout="vertical"
            onFinish={(v) => saveProfile.mutate(v)}
            disabled={saveProfile.isPending}
          >
            <Form.Item name="displayName" label={t.displayName}>
              <Input maxLength={128} />
            </Form.Item>
            <Form.Item
              name="email"
              label={t.email}
              rules={[{ required: true, type: 'email', message: t.emailInvalid }]}
            >
              <Input maxLength={254} />
            </Form.Item>
            <Form.Item name="layout" label={t.layout}>
              <Radio.Group optionType="button" options={LAYOUTS.map((l) => ({ value: l, label: t.layouts[l] }))} />
            </Form.Item>
            <Form.Item name="skin" label={t.skin}>
              <Radio.Group optionType="button" options={SKINS.map((s) => ({ value: s, label: t.skins[s] }))} />
            </Form.Item>
            <Form.Item name="language" label={t.language}>
              <Radio.Group optionType="button" options={LOCALES.map((l) => ({ value: l, label: LOCALE_LABELS[l] }))} />
            </Form.Item>
            <Button type="primary" htmlType="submit" loading={saveProfile.isPending}>
              {t.save}
            </Button>
          </Form>
        </Card>
      </Col>
      <Col xs={24} lg={10}>
        <Card>
          <Typography.Title level={4}>{t.password}</Typography.Title>
          {passwordError && <Alert type="error" showIcon message={passwordError} style={{ marginBottom: 16 }} />}
          <Form
            form={passwordForm}
            layout="vertical"
            onFinish={(v) => changePassword.mutate(v)}
            disabled={changePassword.isPending}
          >
            <Form.Item
              name="currentPassword"
              label={t.currentPassword}
              rules={[{ required: true, message: t.currentRequired }]}
            >
              <Input.Password autoComplete="current-password" maxLength={1024} />
            </Form.Item>
            <Form.Item
              name="newPassword"
              label={t.newPassword}
              rules={[{ required: true, min: 8, message: t.tooShort }]}
            >
              <Input.Password autoComplete="new-password" maxLength={1024} />
            </Form.Item>
            <Form.Item
              name="confirm"
              label={t.repeat}
              dependencies={['newPassword']}
              rules={[
                { required: true, message: t.repeatRequired },
                ({ getFieldValue }) => ({
                  validator: (_, value) =>
                    value === getFieldValue('newPassword') ? Promise.resolve() : Promise.reject(new Error(t.differ)),
                }),
              ]}
            >
              <Input.Password autoComplete="new-password" maxLength={1024} />
            </Form.Item>
            <Button htmlType="submit" loading={changePassword.isPending}>
              {t.change}
            </Button>
          </Form>
        </Card>
      </Col>
      <Col span={24}>
        <Card>
          <Typography.Title level={4}>{t.gitIdentities}</Typography.Title>
          <GitIdentitiesEditor path={PATHS.myGitIdentities} accountEmail={me.data?.profile.email ?? ''} />
        </Card>
      </Col>
      <Col span={24}>
        <SessionsCard />
      </Col>
    </Row>
  );
}
