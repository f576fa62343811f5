import { API, type Role, type Screen } from '@sextant/api';
import { useMutation, useQuery } from '@tanstack/react-query';
import { App, Button, Input, Modal, Tag, Typography } from 'antd';
import { useState } from 'react';
import { EntityListScreen } from '../../components/crud/EntityListScreen.tsx';
import type { EntitySpec } from '../../components/crud/types.ts';
import { ApiError } from '../../lib/api-client.ts';
import { usePermission } from '../../lib/permissions.ts';
import { api } from '../../lib/session.tsx';

type UserRow = {
  id: string;
  username: string;
  email: string;
  displayName: string;
  role: string;
  usertypes: number[];
  enabled: boolean;
};
type ResetLink = { token: string; url: string; expiresAt: string };

/** User types of specification point 6; type 1 owns everything. */
const USER_TYPES = [
  { value: '1', label: 'administrator (owns every item)' },
  { value: '2', label: 'developer' },
  { value: '3', label: 'tester' },
  { value: '4', label: 'manager' },
];

export default function UserListPage({ screen }: { screen: Screen }) {
  const { message } = App.useApp();
  const mayCreate = usePermission('create', 'User');
  const mayUpdate = usePermission('update', 'User');
  const [link, setLink] = useState<(ResetLink & { username: string }) | null>(null);
  const roles = useQuery({ queryKey: [API.roles], queryFn: () => api.get<Role[]>(API.roles) });
  const issue = useMutation({
    mutationFn: (user: UserRow) => api.post<ResetLink>(API.userResetLink(user.id)),
    onSuccess: (answer, user) => setLink({ ...answer, username: user.username }),
    onError: (e) => message.error(e instanceof ApiError ? e.message : 'Could not issue the link.'),
  });

  const spec: EntitySpec<UserRow> = {
    noun: 'user',
    path: API.users,
    can: { create: mayCreate, update: mayUpdate, remove: false },
    columns: [
      { key: 'username', title: 'Username', sortable: true },
      { key: 'displayName', title: 'Name', sortable: true },
      { key: 'email', title: 'Email', sortable: true },
      { key: 'role', title: 'Role', render: (u) => <Tag>{u.role}</Tag> },
      {
        key: 'enabled',
        title: 'Status',
        sortable: true,
        render: (u) => (u.enabled ? <Tag color="green">active</Tag> : <Tag>disabled</Tag>),
      },
    ],
    fields: [
      { name: 'username', label: 'Username', required: true, maxLength: 64, createOnly: true },
      { name: 'displayName', label: 'Display name', maxLength: 128 },
      { name: 'email', label: 'Email', required: true, maxLength: 254 },
      {
        name: 'role',
        label: 'Role',
        kind: 'select',
        required: true,
        options: (roles.data ?? []).map((r) => ({ value: r.name, label: r.name })),
      },
      { name: 'usertypes', label: 'User types', kind: 'tags', options: USER_TYPES, editOnly: true },
      { name: 'enabled', label: 'Active', kind: 'switch', editOnly: true },
      {
        name: 'password',
        label: 'Initial password',
        kind: 'password',
        maxLength: 1024,
        createOnly: true,
        help: 'Leave empty and send a reset link instead.',
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
        <Button
          size="small"
          onClick={() => issue.mutate(user)}
          loading={issue.isPending && issue.variables?.id === user.id}
        >
          Reset link
        </Button>
      ),
  };

  return (
    <>
      <EntityListScreen title={screen.title} spec={spec} />
      <Modal
        open={link !== null}
        title={`Reset link for ${link?.username ?? ''}`}
        onCancel={() => setLink(null)}
        footer={null}
      >
        <Typography.Paragraph>
          Send this link to the user. It works once and expires {link ? new Date(link.expiresAt).toLocaleString() : ''}.
        </Typography.Paragraph>
        <Input.TextArea
          readOnly
          value={link ? new URL(link.url, window.location.origin).toString() : ''}
          autoSize
          aria-label="Reset link"
        />
      </Modal>
    </>
  );
}
