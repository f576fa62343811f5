import { CASE_TYPES, type Case, CaseSchema, PATHS, pageSchema, RequirementSchema, type Screen } from '@sextant/api';
import { useQuery } from '@tanstack/react-query';
import { Tag, Typography } from 'antd';
import { EntityListScreen } from '../../components/crud/EntityListScreen.tsx';
import type { EntitySpec } from '../../components/crud/types.ts';
import { useNamedOptions } from '../../lib/admin-options.ts';
import { useTexts } from '../../lib/i18n.tsx';
import { usePermission } from '../../lib/permissions.ts';
import { useScreenTitle } from '../../lib/screen-texts.ts';
import { api } from '../../lib/session.tsx';
import { useUserOptions } from '../../lib/user-options.ts';
import { CaseImport } from './CaseImport.tsx';
import { caseTexts } from './texts.ts';

export default function CaseListPage({ screen }: { screen: Screen }) {
  const t = useTexts(caseTexts);
  const title = useScreenTitle(screen);
  const may = {
    create: usePermission('create', 'Case'),
    update: usePermission('update', 'Case'),
    remove: usePermission('delete', 'Case'),
  };
  const editing = may.create || may.update;
  const apps = useNamedOptions(PATHS.apps, editing);
  const users = useUserOptions(editing);
  const requirements = useQuery({
    queryKey: [PATHS.requirements, 'options'],
    queryFn: () => api.get(PATHS.requirements, pageSchema(RequirementSchema), { query: { perPage: 200 } }),
    enabled: editing,
    retry: false,
  });
  const spec: EntitySpec<Case> = {
    noun: t.noun,
    emptyHint: t.emptyHint,
    path: PATHS.cases,
    schema: CaseSchema,
    can: may,
    filters: may.create ? <CaseImport apps={apps} /> : undefined,
    columns: [
      { key: 'key', title: t.key, sortable: true, render: (c) => <Typography.Text code>{c.key}</Typography.Text> },
      { key: 'title', title: t.title, sortable: true },
      { key: 'appName', title: t.app },
      { key: 'requirementKey', title: t.requirement, render: (c) => c.requirementKey ?? '—' },
      { key: 'type', title: t.type, sortable: true, render: (c) => <Tag>{t.types[c.type]}</Tag> },
      { key: 'tags', title: t.tags, render: (c) => c.tags.map((tag) => <Tag key={tag}>{tag}</Tag>) },
      { key: 'owner', title: t.owner, render: (c) => c.owner?.displayName || c.owner?.username || '—' },
    ],
    fields: [
      { name: 'key', label: t.key, required: true, maxLength: 64 },
      { name: 'title', label: t.title, required: true, maxLength: 300 },
      { name: 'appId', label: t.app, kind: 'select', required: true, options: apps },
      {
        name: 'requirementId',
        label: t.requirement,
        kind: 'select',
        options: (requirements.data?.items ?? []).map((r) => ({ value: r.id, label: `${r.key} ${r.title}` })),
      },
      {
        name: 'type',
        label: t.type,
        kind: 'select',
        options: CASE_TYPES.map((type) => ({ value: type, label: t.types[type] })),
      },
      { name: 'tags', label: t.tags, kind: 'tags' },
      { name: 'ownerId', label: t.owner, kind: 'select', options: users },
    ],
    toFormValues: (c) => ({ ...c, ownerId: c.owner?.id }),
    fromFormValues: (v) => ({ ...v, requirementId: v.requirementId ?? null, ownerId: v.ownerId ?? null }),
  };
  return <EntityListScreen title={title} spec={spec} />;
}
