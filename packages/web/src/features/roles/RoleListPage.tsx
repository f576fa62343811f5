import { NoDataSchema, PATHS, pathTo, type Role, type RoleInput, RoleSchema } from '@sextant/api';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Input, Modal, Popconfirm, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { ApiError } from '../../lib/api-client.ts';
import { useErrorMessage } from '../../lib/error-texts.ts';
import { fill, useTexts } from '../../lib/i18n.tsx';
import { usePermission } from '../../lib/permissions.ts';
import { api } from '../../lib/session.tsx';
import { AbilityMatrix, type Grants } from './AbilityMatrix.tsx';
import { roleTexts } from './texts.ts';

type Draft = { id: string | null; name: string; builtin: boolean } & Grants;

export default function RoleListPage() {
  const { message } = App.useApp();
  const client = useQueryClient();
  const t = useTexts(roleTexts);
  const errorMessage = useErrorMessage();
  const mayCreate = usePermission('create', 'Role');
  const mayUpdate = usePermission('update', 'Role');
  const mayDelete = usePermission('delete', 'Role');
  const roles = useQuery({ queryKey: [PATHS.roles], queryFn: () => api.get(PATHS.roles, RoleSchema.array()) });
  const [draft, setDraft] = useState<Draft | null>(null);
  const [error, setError] = useState<string | null>(null);

  const save = useMutation({
    mutationFn: (d: Draft) => {
      const body: RoleInput = { name: d.name, ability: d.ability, resourceNums: d.resourceNums };
      return d.id
        ? api.patch(pathTo(PATHS.role, { id: d.id }), RoleSchema, body)
        : api.post(PATHS.roles, RoleSchema, body);
    },
    onSuccess: () => {
      message.success(t.saved);
      setDraft(null);
      void client.invalidateQueries({ queryKey: [PATHS.roles] });
    },
    onError: (e) => setError(e instanceof ApiError ? errorMessage(e) : t.saveFailed),
  });
  const remove = useMutation({
    mutationFn: (role: Role) => api.delete(pathTo(PATHS.role, { id: role.id }), NoDataSchema),
    onSuccess: () => {
      message.success(t.deleted);
      void client.invalidateQueries({ queryKey: [PATHS.roles] });
    },
    onError: (e) => message.error(e instanceof ApiError ? errorMessage(e) : t.deleteFailed),
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
          {t.roles}
        </Typography.Title>
        {mayCreate && (
          <Button
            type="primary"
            onClick={() => edit({ id: null, name: '', builtin: false, ability: [], resourceNums: {} })}
          >
            {t.newRole}
          </Button>
        )}
      </Space>
      {roles.error && <Alert type="error" showIcon message={errorMessage(roles.error)} />}
      <Table<Role>
        rowKey="id"
        loading={roles.isLoading}
        dataSource={roles.data ?? []}
        pagination={{ pageSize: 10, hideOnSinglePage: true }}
        locale={{ emptyText: t.none }}
        columns={[
          {
            title: t.name,
            dataIndex: 'name',
            sorter: (a, b) => a.name.localeCompare(b.name),
            render: (name: string, role) => (
              <Space>
                {name}
                {role.builtin && <Tag>{t.builtin}</Tag>}
              </Space>
            ),
          },
          { title: t.users, dataIndex: 'users', sorter: (a, b) => a.users - b.users, width: 100 },
          {
            title: t.abilities,
            key: 'ability',
            render: (_, role) =>
              role.ability.length === 0 ? (
                <Typography.Text type="secondary">{t.noAbilities}</Typography.Text>
              ) : (
                role.ability
                  .slice(0, 6)
                  .map((a) => <Tag key={`${a.action}:${a.resource}`}>{`${a.action} ${a.resource}`}</Tag>)
              ),
          },
          {
            title: t.actions,
            key: 'actions',
            width: 180,
            render: (_, role) => (
              <Space>
                {mayUpdate && (
                  <Button size="small" onClick={() => edit({ ...role })}>
                    {t.edit}
                  </Button>
                )}
                {mayDelete && !role.builtin && (
                  <Popconfirm title={t.confirmDelete} onConfirm={() => remove.mutate(role)}>
                    <Button size="small" danger>
                      {t.delete}
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
        title={draft?.id ? fill(t.roleTitle, { name: draft.name }) : t.newRole}
        okText={t.save}
        okButtonProps={{ disabled: locked || !draft?.name.trim() }}
        confirmLoading={save.isPending}
        onOk={() => draft && save.mutate(draft)}
        onCancel={() => setDraft(null)}
        destroyOnHidden
      >
        {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 12 }} />}
        {locked && <Alert type="info" showIcon message={t.adminLocked} style={{ marginBottom: 12 }} />}
        {draft && (
          <>
            <Input
              aria-label={t.roleName}
              placeholder={t.roleName}
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
