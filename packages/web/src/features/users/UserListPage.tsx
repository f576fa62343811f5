import { PATHS, pathTo, ResetLinkSchema, RoleSchema, type Screen, type UserRow, UserRowSchema } from '@sextant/api';
import { useMutation, useQuery } from '@tanstack/react-query';
import { App, Button, Input, Modal, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { EntityListScreen } from '../../components/crud/EntityListScreen.tsx';
import type { EntitySpec } from '../../components/crud/types.ts';
import { GitIdentitiesEditor } from '../../components/git-identities/GitIdentitiesEditor.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { useErrorMessage } from '../../lib/error-texts.ts';
import { fill, useLocale, useTexts } from '../../lib/i18n.tsx';
import { usePermission } from '../../lib/permissions.ts';
import { useScreenTitle } from '../../lib/screen-texts.ts';
import { api } from '../../lib/session.tsx';
import { userTexts } from './texts.ts';

type ResetLink = { token: string; url: string; expiresAt: string };

/** User types of specification point 6; type 1 owns everything. */
const USER_TYPES = ['1', '2', '3', '4'] as const;

export default function UserListPage({ screen }: { screen: Screen }) {
  const { message } = App.useApp();
  const t = useTexts(userTexts);
  const { formatDate } = useLocale();
  const errorMessage = useErrorMessage();
  const title = useScreenTitle(screen);
  const mayCreate = usePermission('create', 'User');
  const mayUpdate = usePermission('update', 'User');
  const [link, setLink] = useState<(ResetLink & { username: string }) | null>(null);
  const [identitiesOf, setIdentitiesOf] = useState<UserRow | null>(null);
  const roles = useQuery({ queryKey: [PATHS.roles], queryFn: () => api.get(PATHS.roles, RoleSchema.array()) });
  const issue = useMutation({
    mutationFn: (user: UserRow) => api.post(pathTo(PATHS.userResetLink, { id: user.id }), ResetLinkSchema),
    onSuccess: (answer, user) => setLink({ ...answer, username: user.username }),
    onError: (e) => message.error(e instanceof ApiError ? errorMessage(e) : t.issueFailed),
  });

  const spec: EntitySpec<UserRow> = {
    noun: t.noun,
    emptyHint: t.emptyHint,
    path: PATHS.users,
    schema: UserRowSchema,
    can: { create: mayCreate, update: mayUpdate, remove: false },
    columns: [
      { key: 'username', title: t.username, sortable: true },
      { key: 'displayName', title: t.name, sortable: true },
      { key: 'email', title: t.email, sortable: true },
      { key: 'role', title: t.role, render: (u) => <Tag>{u.role}</Tag> },
      {
        key: 'enabled',
        title: t.status,
        sortable: true,
        render: (u) => (u.enabled ? <Tag color="green">{t.active}</Tag> : <Tag>{t.disabled}</Tag>),
      },
    ],
    fields: [
      { name: 'username', label: t.username, required: true, maxLength: 64, createOnly: true },
      { name: 'displayName', label: t.displayName, maxLength: 128 },
      { name: 'email', label: t.email, required: true, maxLength: 254 },
      {
        name: 'role',
        label: t.role,
        kind: 'select',
        required: true,
        options: (roles.data ?? []).map((r) => ({ value: r.name, label: r.name })),
      },
      {
        name: 'usertypes',
        label: t.userTypes,
        kind: 'tags',
        options: USER_TYPES.map((value) => ({ value, label: t.types[value] })),
        editOnly: true,
      },
      { name: 'enabled', label: t.activeField, kind: 'switch', editOnly: true },
      {
        name: 'password',
        label: t.initialPassword,
        kind: 'password',
        maxLength: 1024,
        createOnly: true,
        help: t.initialPasswordHelp,
      },
    ],
    toFormValues: (u) => ({ ...u, usertypes: u.usertypes.map(String) }),
    fromFormValues: (values) => ({
      ...values,
      ...(Array.isArray(values.usertypes) ? { usertypes: values.usertypes.map(Number) } : {}),
      ...(values.password ? {} : { password: undefined }),
    }),
    rowActions: (user) =>
      mayUpdate && (
        <Space size={4}>
          <Button
            size="small"
            onClick={() => issue.mutate(user)}
            loading={issue.isPending && issue.variables?.id === user.id}
          >
            {t.resetLink}
          </Button>
          <Button size="small" onClick={() => setIdentitiesOf(user)}>
            {t.gitIdentities}
          </Button>
        </Space>
      ),
  };

  return (
    <>
      <EntityListScreen title={title} spec={spec} />
      <Modal
        open={link !== null}
        title={fill(t.resetLinkFor, { username: link?.username ?? '' })}
        onCancel={() => setLink(null)}
        footer={null}
      >
        <Typography.Paragraph>
          {fill(t.resetLinkHelp, { expires: link ? formatDate(link.expiresAt) : '' })}
        </Typography.Paragraph>
        <Input.TextArea
          readOnly
          value={link ? new URL(link.url, window.location.origin).toString() : ''}
          autoSize
          aria-label={t.resetLink}
        />
      </Modal>
      <Modal
        open={identitiesOf !== null}
        title={fill(t.gitIdentitiesFor, { username: identitiesOf?.username ?? '' })}
        onCancel={() => setIdentitiesOf(null)}
        footer={null}
        destroyOnHidden
      >
        {identitiesOf && <GitIdentitiesEditor path={pathTo(PATHS.userGitIdentities, { id: identitiesOf.id })} />}
      </Modal>
    </>
  );
}
