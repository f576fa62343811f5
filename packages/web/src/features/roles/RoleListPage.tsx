import { API, type Role, type RoleInput } from '@sextant/api';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Input, Modal, Popconfirm, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { ApiError } from '../../lib/api-client.ts';
import { usePermission } from '../../lib/permissions.ts';
import { api } from '../../lib/session.tsx';
import { AbilityMatrix, type Grants } from './AbilityMatrix.tsx';

type Draft = { id: string | null; name: string; builtin: boolean } & Grants;

export default function RoleListPage() {
  const { message } = App.useApp();
  const client = useQueryClient();
  const mayCreate = usePermission('create', 'Role');
  const mayUpdate = usePermission('update', 'Role');
  const mayDelete = usePermission('delete', 'Role');
  const roles = useQuery({ queryKey: [API.roles], queryFn: () => api.get<Role[]>(API.roles) });
  const [draft, setDraft] = useState<Draft | null>(null);
  const [error, setError] = useState<string | null>(null);

  const save = useMutation({
    mutationFn: (d: Draft) => {
      const body: RoleInput = { name: d.name, ability: d.ability, resourceNums: d.resourceNums };
      return d.id ? api.patch<Role>(API.role(d.id), body) : api.post<Role>(API.roles, body);
    },
    onSuccess: () => {
      message.success('Role saved.');
      setDraft(null);
      void client.invalidateQueries({ queryKey: [API.roles] });
    },
    onError: (e) => setError(e instanceof ApiError ? e.message : 'Could not save the role.'),
  });
  const remove = useMutation({
    mutationFn: (role: Role) => api.delete(API.role(role.id)),
    onSuccess: () => {
      message.success('Role deleted.');
      void client.invalidateQueries({ queryKey: [API.roles] });
    },
    onError: (e) => message.error(e instanceof ApiError ? e.message : 'Could not delete the role.'),
  });

  const edit = (d: Draft) => {
    setError(null);
    setDraft(d);
  };
  const locked = draft?.name === 'admin' && draft.builtin;
  return (
    <Card>
      <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 16 }}>
        <Typography.Title level={4} style={{ margin: 0 }}>
          Roles
        </Typography.Title>
        {mayCreate && (
          <Button
            type="primary"
            onClick={() => edit({ id: null, name: '', builtin: false, ability: [], resourceNums: {} })}
          >
            New role
          </Button>
        )}
      </Space>
      {roles.error && <Alert type="error" showIcon message={roles.error.message} />}
      <Table<Role>
        rowKey="id"
        loading={roles.isLoading}
        dataSource={roles.data ?? []}
        pagination={{ pageSize: 10, hideOnSinglePage: true }}
        locale={{ emptyText: 'No roles yet.' }}
        columns={[
          {
            title: 'Name',
            dataIndex: 'name',
            sorter: (a, b) => a.name.localeCompare(b.name),
            render: (name: string, role) => (
              <Space>
                {name}
                {role.builtin && <Tag>built-in</Tag>}
              </Space>
            ),
          },
          { title: 'Users', dataIndex: 'users', sorter: (a, b) => a.users - b.users, width: 100 },
          {
            title: 'Abilities',
            key: 'ability',
            render: (_, role) =>
              role.ability.length === 0 ? (
                <Typography.Text type="secondary">none</Typography.Text>
              ) : (
                role.ability
                  .slice(0, 6)
                  .map((a) => <Tag key={`${a.action}:${a.resource}`}>{`${a.action} ${a.resource}`}</Tag>)
              ),
          },
          {
            title: 'Actions',
            key: 'actions',
            width: 180,
            render: (_, role) => (
              <Space>
                {mayUpdate && (
                  <Button size="small" onClick={() => edit({ ...role })}>
                    Edit
                  </Button>
                )}
                {mayDelete && !role.builtin && (
                  <Popconfirm title="Delete this role?" onConfirm={() => remove.mutate(role)}>
                    <Button size="small" danger>
                      Delete
                    </Button>
                  </Popconfirm>
                )}
              </Space>
            ),
          },
        ]}
      />
      <Modal
        open={draft !== null}
        width={900}
        title={draft?.id ? `Role ${draft.name}` : 'New role'}
        okText="Save"
        okButtonProps={{ disabled: locked || !draft?.name.trim() }}
        confirmLoading={save.isPending}
        onOk={() => draft && save.mutate(draft)}
        onCancel={() => setDraft(null)}
        destroyOnHidden
      >
        {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 12 }} />}
        {locked && (
          <Alert
            type="info"
            showIcon
            message="The admin role always manages everything."
            style={{ marginBottom: 12 }}
          />
        )}
        {draft && (
          <>
            <Input
              aria-label="Role name"
              placeholder="Role name"
              maxLength={64}
              value={draft.name}
              disabled={draft.builtin}
              onChange={(e) => setDraft({ ...draft, name: e.target.value })}
              style={{ marginBottom: 12 }}
            />
            <AbilityMatrix value={draft} disabled={locked} onChange={(next) => setDraft({ ...draft, ...next })} />
          </>
        )}
      </Modal>
    </Card>
  );
}
