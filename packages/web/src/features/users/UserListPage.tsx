import { API, type Screen } from '@sextant/api';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Card, Input, Modal, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { ApiError } from '../../lib/api-client.ts';
import { api } from '../../lib/session.tsx';

type UserRow = { id: string; username: string; email: string; displayName: string; role: string; enabled: boolean };
type Role = { id: string; name: string; builtin: boolean };
type ResetLink = { token: string; url: string; expiresAt: string };

export default function UserListPage({ screen }: { screen: Screen }) {
  const { message } = App.useApp();
  const [page, setPage] = useState({ page: 1, perPage: 10 });
  const [link, setLink] = useState<(ResetLink & { username: string }) | null>(null);
  const users = useQuery({
    queryKey: ['users', page],
    queryFn: () => api.get<{ items: UserRow[]; total: number }>(API.users, { query: page }),
  });
  const roles = useQuery({ queryKey: ['roles'], queryFn: () => api.get<Role[]>(API.roles) });
  const issue = useMutation({
    mutationFn: (user: UserRow) => api.post<ResetLink>(API.userResetLink(user.id)),
    onSuccess: (answer, user) => setLink({ ...answer, username: user.username }),
    onError: (e) => message.error(e instanceof ApiError ? e.message : 'Could not issue the link.'),
  });

  const error = users.error ?? roles.error;
  return (
    <Card>
      <Space style={{ justifyContent: 'space-between', width: '100%' }}>
        <Typography.Title level={4}>{screen.title}</Typography.Title>
        <Typography.Text type="secondary">{roles.data ? `${roles.data.length} roles` : ''}</Typography.Text>
      </Space>
      {error && <Alert type="error" showIcon message={error.message} style={{ marginBottom: 16 }} />}
      <Table<UserRow>
        rowKey="id"
        loading={users.isLoading}
        dataSource={users.data?.items ?? []}
        pagination={{
          current: page.page,
          pageSize: page.perPage,
          total: users.data?.total ?? 0,
          showSizeChanger: true,
          onChange: (p, perPage) => setPage({ page: p, perPage }),
        }}
        locale={{ emptyText: 'No users yet.' }}
        columns={[
          { title: 'Username', dataIndex: 'username' },
          { title: 'Name', dataIndex: 'displayName' },
          { title: 'Email', dataIndex: 'email' },
          { title: 'Role', dataIndex: 'role', render: (role: string) => <Tag>{role}</Tag> },
          {
            title: 'Status',
            dataIndex: 'enabled',
            render: (enabled: boolean) => (enabled ? <Tag color="green">active</Tag> : <Tag>awaiting approval</Tag>),
          },
          {
            title: 'Actions',
            key: 'actions',
            render: (_, user) => (
              <Button
                size="small"
                onClick={() => issue.mutate(user)}
                loading={issue.isPending && issue.variables?.id === user.id}
              >
                Reset link
              </Button>
            ),
          },
        ]}
      />
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
    </Card>
  );
}
