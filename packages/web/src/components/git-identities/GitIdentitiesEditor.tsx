import { GitIdentitiesSchema, MAX_GIT_IDENTITIES } from '@sextant/api';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Select, Space, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useErrorMessage } from '../../lib/error-texts.ts';
import { fill, useTexts } from '../../lib/i18n.tsx';
import { api } from '../../lib/session.tsx';
import { gitIdentityTexts } from './texts.ts';

/**
 * The names and e-mail addresses someone commits under (issue 34): the signed-in user's own
 * (`/api/me/gitIdentities`) or, for user administrators, anyone's (`/api/users/{id}/gitIdentities`).
 */
export function GitIdentitiesEditor({ path, accountEmail }: { path: string; accountEmail?: string }) {
  const t = useTexts(gitIdentityTexts);
  const errorText = useErrorMessage();
  const { message } = App.useApp();
  const client = useQueryClient();
  const listed = useQuery({ queryKey: [path], queryFn: () => api.get(path, GitIdentitiesSchema) });
  const [values, setValues] = useState<string[]>([]);
  useEffect(() => {
    if (listed.data) setValues(listed.data.identities);
  }, [listed.data]);
  const parsed = GitIdentitiesSchema.safeParse({ identities: values });
  const save = useMutation({
    mutationFn: () => api.put(path, GitIdentitiesSchema, { identities: values }),
    onSuccess: (answer) => {
      client.setQueryData([path], answer);
      message.success(t.saved);
    },
  });
  const failure = save.error ?? listed.error;
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        {accountEmail === undefined ? t.explainOther : fill(t.explain, { email: accountEmail })}
      </Typography.Paragraph>
      {failure && <Alert type="error" showIcon message={errorText(failure)} />}
      <Select
        mode="tags"
        style={{ width: '100%' }}
        value={values}
        onChange={(next: string[]) => setValues(next.map((v) => v.trim()).filter((v) => v !== ''))}
        tokenSeparators={[',', ';']}
        open={false}
        suffixIcon={null}
        loading={listed.isLoading}
        placeholder={t.placeholder}
        aria-label={t.title}
        status={parsed.success ? undefined : 'error'}
      />
      {!parsed.success && (
        <Typography.Text type="danger">
          {values.length > MAX_GIT_IDENTITIES ? fill(t.tooMany, { max: String(MAX_GIT_IDENTITIES) }) : t.invalid}
        </Typography.Text>
      )}
      <Button type="primary" onClick={() => save.mutate()} loading={save.isPending} disabled={!parsed.success}>
        {t.save}
      </Button>
    </Space>
  );
}
