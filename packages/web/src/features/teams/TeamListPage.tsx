import { ADMIN_API, type Screen, type Team } from '@sextant/api';
import { Tag, Typography } from 'antd';
import { EntityListScreen } from '../../components/crud/EntityListScreen.tsx';
import type { EntitySpec } from '../../components/crud/types.ts';
import { usePermission } from '../../lib/permissions.ts';
import { useUserOptions } from '../../lib/user-options.ts';

export default function TeamListPage({ screen }: { screen: Screen }) {
  const may = {
    create: usePermission('create', 'Team'),
    update: usePermission('update', 'Team'),
    remove: usePermission('delete', 'Team'),
  };
  const users = useUserOptions(may.create || may.update);
  const spec: EntitySpec<Team> = {
    noun: 'team',
    path: ADMIN_API.teams,
    can: may,
    columns: [
      { key: 'name', title: 'Name', sortable: true },
      { key: 'leader', title: 'Leader', render: (t) => t.leader?.displayName || t.leader?.username || '—' },
      {
        key: 'members',
        title: 'Members',
        render: (t) =>
          t.members.length === 0 ? (
            <Typography.Text type="secondary">none</Typography.Text>
          ) : (
            t.members.slice(0, 5).map((m) => <Tag key={m.id}>{m.displayName || m.username}</Tag>)
          ),
      },
      {
        key: 'description',
        title: 'Description',
        render: (t) => <Typography.Text ellipsis>{t.description}</Typography.Text>,
      },
    ],
    fields: [
      { name: 'name', label: 'Name', required: true, maxLength: 100 },
      { name: 'leaderId', label: 'Leader', kind: 'select', options: users },
      { name: 'memberIds', label: 'Members', kind: 'tags', options: users },
      { name: 'description', label: 'Description', kind: 'textarea', maxLength: 2000 },
    ],
    toFormValues: (t) => ({
      name: t.name,
      leaderId: t.leader?.id,
      memberIds: t.members.map((m) => m.id),
      description: t.description,
    }),
    fromFormValues: (v) => ({ ...v, leaderId: v.leaderId ?? null }),
  };
  return <EntityListScreen title={screen.title} spec={spec} />;
}
