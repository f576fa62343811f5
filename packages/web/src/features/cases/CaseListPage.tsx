import { ADMIN_API, CASE_TYPES, type Case, type Requirement, type Screen } from '@sextant/api';
import { useQuery } from '@tanstack/react-query';
import { Tag, Typography } from 'antd';
import { EntityListScreen } from '../../components/crud/EntityListScreen.tsx';
import type { EntitySpec } from '../../components/crud/types.ts';
import { useNamedOptions } from '../../lib/admin-options.ts';
import { usePermission } from '../../lib/permissions.ts';
import { api } from '../../lib/session.tsx';
import { useUserOptions } from '../../lib/user-options.ts';
import { CaseImport } from './CaseImport.tsx';

export default function CaseListPage({ screen }: { screen: Screen }) {
  const may = {
    create: usePermission('create', 'Case'),
    update: usePermission('update', 'Case'),
    remove: usePermission('delete', 'Case'),
  };
  const editing = may.create || may.update;
  const apps = useNamedOptions(ADMIN_API.apps, editing);
  const users = useUserOptions(editing);
  const requirements = useQuery({
    queryKey: [ADMIN_API.requirements, 'options'],
    queryFn: () => api.get<{ items: Requirement[] }>(ADMIN_API.requirements, { query: { perPage: 200 } }),
    enabled: editing,
    retry: false,
  });
  const spec: EntitySpec<Case> = {
    noun: 'case',
    path: ADMIN_API.cases,
    can: may,
    filters: may.create ? <CaseImport apps={apps} /> : undefined,
    columns: [
      { key: 'key', title: 'Key', sortable: true, render: (c) => <Typography.Text code>{c.key}</Typography.Text> },
      { key: 'title', title: 'Title', sortable: true },
      { key: 'appName', title: 'App' },
      { key: 'requirementKey', title: 'Requirement', render: (c) => c.requirementKey ?? '—' },
      { key: 'type', title: 'Type', sortable: true, render: (c) => <Tag>{c.type}</Tag> },
      { key: 'tags', title: 'Tags', render: (c) => c.tags.map((t) => <Tag key={t}>{t}</Tag>) },
      { key: 'owner', title: 'Owner', render: (c) => c.owner?.displayName || c.owner?.username || '—' },
    ],
    fields: [
      { name: 'key', label: 'Key', required: true, maxLength: 64 },
      { name: 'title', label: 'Title', required: true, maxLength: 300 },
      { name: 'appId', label: 'App', kind: 'select', required: true, options: apps },
      {
        name: 'requirementId',
        label: 'Requirement',
        kind: 'select',
        options: (requirements.data?.items ?? []).map((r) => ({ value: r.id, label: `${r.key} ${r.title}` })),
      },
      { name: 'type', label: 'Type', kind: 'select', options: CASE_TYPES.map((t) => ({ value: t, label: t })) },
      { name: 'tags', label: 'Tags', kind: 'tags' },
      { name: 'ownerId', label: 'Owner', kind: 'select', options: users },
    ],
    toFormValues: (c) => ({ ...c, ownerId: c.owner?.id }),
    fromFormValues: (v) => ({ ...v, requirementId: v.requirementId ?? null, ownerId: v.ownerId ?? null }),
  };
  return <EntityListScreen title={screen.title} spec={spec} />;
}
