import {
  PATHS,
  pageSchema,
  REQUIREMENT_STATUSES,
  type Requirement,
  RequirementSchema,
  type Screen,
  VersionSchema,
} from '@sextant/api';
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
import { requirementTexts } from './texts.ts';

/** Requirements link commits to features: a commit whose message names the key belongs to it. */
export default function RequirementListPage({ screen }: { screen: Screen }) {
  const t = useTexts(requirementTexts);
  const title = useScreenTitle(screen);
  const may = {
    create: usePermission('create', 'Requirement'),
    update: usePermission('update', 'Requirement'),
    remove: usePermission('delete', 'Requirement'),
  };
  const editing = may.create || may.update;
  const projects = useNamedOptions(PATHS.projects, editing);
  const users = useUserOptions(editing);
  const versions = useQuery({
    queryKey: [PATHS.versions, 'options'],
    queryFn: () => api.get(PATHS.versions, pageSchema(VersionSchema), { query: { perPage: 200 } }),
    enabled: editing,
  });
  const spec: EntitySpec<Requirement> = {
    noun: t.noun,
    emptyHint: t.emptyHint,
    path: PATHS.requirements,
    schema: RequirementSchema,
    can: may,
    columns: [
      { key: 'key', title: t.key, sortable: true, render: (r) => <Typography.Text code>{r.key}</Typography.Text> },
      { key: 'title', title: t.title, sortable: true },
      { key: 'projectName', title: t.project },
      { key: 'versionName', title: t.version, render: (r) => r.versionName ?? '—' },
      { key: 'owner', title: t.owner, render: (r) => r.owner?.displayName || r.owner?.username || '—' },
      { key: 'status', title: t.status, sortable: true, render: (r) => <Tag>{t.statuses[r.status]}</Tag> },
    ],
    fields: [
      {
        name: 'key',
        label: t.key,
        required: true,
        maxLength: 64,
        help: t.keyHelp,
      },
      { name: 'title', label: t.title, required: true, maxLength: 300 },
      { name: 'projectId', label: t.project, kind: 'select', required: true, options: projects },
      {
        name: 'versionId',
        label: t.version,
        kind: 'select',
        options: (versions.data?.items ?? []).map((v) => ({ value: v.id, label: `${v.projectName} · ${v.name}` })),
      },
      { name: 'ownerId', label: t.owner, kind: 'select', options: users },
      {
        name: 'status',
        label: t.status,
        kind: 'select',
        options: REQUIREMENT_STATUSES.map((s) => ({ value: s, label: t.statuses[s] })),
      },
    ],
    toFormValues: (r) => ({ ...r, ownerId: r.owner?.id }),
    fromFormValues: (v) => ({ ...v, versionId: v.versionId ?? null, ownerId: v.ownerId ?? null }),
  };
  return <EntityListScreen title={title} spec={spec} />;
}
