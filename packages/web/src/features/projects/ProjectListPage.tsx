import { ADMIN_API, PROJECT_STATUSES, type Project, type Screen } from '@sextant/api';
import { Tag } from 'antd';
import { EntityListScreen } from '../../components/crud/EntityListScreen.tsx';
import type { EntitySpec } from '../../components/crud/types.ts';
import { useNamedOptions } from '../../lib/admin-options.ts';
import { usePermission } from '../../lib/permissions.ts';
import { useUserOptions } from '../../lib/user-options.ts';

export default function ProjectListPage({ screen }: { screen: Screen }) {
  const may = {
    create: usePermission('create', 'Project'),
    update: usePermission('update', 'Project'),
    remove: usePermission('delete', 'Project'),
  };
  const editing = may.create || may.update;
  const teams = useNamedOptions(ADMIN_API.teams, editing);
  const apps = useNamedOptions(ADMIN_API.apps, editing);
  const users = useUserOptions(editing);
  const spec: EntitySpec<Project> = {
    noun: 'project',
    path: ADMIN_API.projects,
    can: may,
    columns: [
      { key: 'name', title: 'Name', sortable: true },
      { key: 'teamName', title: 'Team' },
      { key: 'owner', title: 'Owner', render: (p) => p.owner?.displayName || p.owner?.username || '—' },
      { key: 'apps', title: 'Apps', render: (p) => p.apps.map((a) => <Tag key={a.id}>{a.name}</Tag>) },
      { key: 'startDate', title: 'Start', sortable: true, render: (p) => p.startDate ?? '—' },
      { key: 'endDate', title: 'End', sortable: true, render: (p) => p.endDate ?? '—' },
      { key: 'status', title: 'Status', sortable: true, render: (p) => <Tag>{p.status}</Tag> },
    ],
    fields: [
      { name: 'name', label: 'Name', required: true, maxLength: 100 },
      { name: 'teamId', label: 'Team', kind: 'select', required: true, options: teams },
      { name: 'ownerId', label: 'Owner', kind: 'select', options: users },
      { name: 'appIds', label: 'Apps', kind: 'tags', options: apps },
      { name: 'startDate', label: 'Start', kind: 'date' },
      { name: 'endDate', label: 'End', kind: 'date' },
      {
        name: 'status',
        label: 'Status',
        kind: 'select',
        options: PROJECT_STATUSES.map((s) => ({ value: s, label: s })),
      },
    ],
    toFormValues: (p) => ({
      name: p.name,
      teamId: p.teamId,
      ownerId: p.owner?.id,
      appIds: p.apps.map((a) => a.id),
      startDate: p.startDate,
      endDate: p.endDate,
      status: p.status,
    }),
    fromFormValues: (v) => ({ ...v, ownerId: v.ownerId ?? null }),
  };
  return <EntityListScreen title={screen.title} spec={spec} />;
}
