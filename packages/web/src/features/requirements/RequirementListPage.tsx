import { ADMIN_API, REQUIREMENT_STATUSES, type Requirement, type Screen, type Version } from '@sextant/api';
import { useQuery } from '@tanstack/react-query';
import { Tag, Typography } from 'antd';
import { EntityListScreen } from '../../components/crud/EntityListScreen.tsx';
import type { EntitySpec } from '../../components/crud/types.ts';
import { useNamedOptions } from '../../lib/admin-options.ts';
import { usePermission } from '../../lib/permissions.ts';
import { api } from '../../lib/session.tsx';
import { useUserOptions } from '../../lib/user-options.ts';

/** Requirements link commits to features: a commit whose message names the key belongs to it. */
export default function RequirementListPage({ screen }: { screen: Screen }) {
  const may = {
    create: usePermission('create', 'Requirement'),
    update: usePermission('update', 'Requirement'),
    remove: usePermission('delete', 'Requirement'),
  };
  const editing = may.create || may.update;
  const projects = useNamedOptions(ADMIN_API.projects, editing);
  const users = useUserOptions(editing);
  const versions = useQuery({
    queryKey: [ADMIN_API.versions, 'options'],
    queryFn: () => api.get<{ items: Version[] }>(ADMIN_API.versions, { query: { perPage: 200 } }),
    enabled: editing,
  });
  const spec: EntitySpec<Requirement> = {
    noun: 'requirement',
    path: ADMIN_API.requirements,
    can: may,
    columns: [
      { key: 'key', title: 'Key', sortable: true, render: (r) => <Typography.Text code>{r.key}</Typography.Text> },
      { key: 'title', title: 'Title', sortable: true },
      { key: 'projectName', title: 'Project' },
      { key: 'versionName', title: 'Version', render: (r) => r.versionName ?? '—' },
      { key: 'owner', title: 'Owner', render: (r) => r.owner?.displayName || r.owner?.username || '—' },
      { key: 'status', title: 'Status', sortable: true, render: (r) => <Tag>{r.status}</Tag> },
    ],
    fields: [
      {
        name: 'key',
        label: 'Key',
        required: true,
        maxLength: 64,
        help: 'e.g. REQ-123 or a ZenTao story id; commits naming it belong to it',
      },
      { name: 'title', label: 'Title', required: true, maxLength: 300 },
      { name: 'projectId', label: 'Project', kind: 'select', required: true, options: projects },
      {
        name: 'versionId',
        label: 'Version',
        kind: 'select',
        options: (versions.data?.items ?? []).map((v) => ({ value: v.id, label: `${v.projectName} · ${v.name}` })),
      },
      { name: 'ownerId', label: 'Owner', kind: 'select', options: users },
      {
        name: 'status',
        label: 'Status',
        kind: 'select',
        options: REQUIREMENT_STATUSES.map((s) => ({ value: s, label: s })),
      },
    ],
    toFormValues: (r) => ({ ...r, ownerId: r.owner?.id }),
    fromFormValues: (v) => ({ ...v, versionId: v.versionId ?? null, ownerId: v.ownerId ?? null }),
  };
  return <EntityListScreen title={screen.title} spec={spec} />;
}
