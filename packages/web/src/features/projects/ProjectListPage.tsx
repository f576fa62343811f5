import { PATHS, PROJECT_STATUSES, type Project, ProjectSchema, type Screen } from '@sextant/api';
import { Tag } from 'antd';
import { EntityListScreen } from '../../components/crud/EntityListScreen.tsx';
import type { EntitySpec } from '../../components/crud/types.ts';
import { useNamedOptions } from '../../lib/admin-options.ts';
import { useLocale, useTexts } from '../../lib/i18n.tsx';
import { usePermission } from '../../lib/permissions.ts';
import { useScreenTitle } from '../../lib/screen-texts.ts';
import { useUserOptions } from '../../lib/user-options.ts';
import { projectTexts } from './texts.ts';

export default function ProjectListPage({ screen }: { screen: Screen }) {
  const t = useTexts(projectTexts);
  const title = useScreenTitle(screen);
  const { formatDate } = useLocale();
  // A YYYY-MM-DD day read as local midnight (a bare date would be UTC and could show the day before).
  const day = (d: string | null) => (d ? formatDate(`${d}T00:00`, false) : '—');
  const may = {
    create: usePermission('create', 'Project'),
    update: usePermission('update', 'Project'),
    remove: usePermission('delete', 'Project'),
  };
  const editing = may.create || may.update;
  const teams = useNamedOptions(PATHS.teams, editing);
  const apps = useNamedOptions(PATHS.apps, editing);
  const users = useUserOptions(editing);
  const spec: EntitySpec<Project> = {
    noun: t.noun,
    emptyHint: t.emptyHint,
    path: PATHS.projects,
    schema: ProjectSchema,
    can: may,
    columns: [
      { key: 'name', title: t.name, sortable: true },
      { key: 'teamName', title: t.team },
      { key: 'owner', title: t.owner, render: (p) => p.owner?.displayName || p.owner?.username || '—' },
      { key: 'apps', title: t.apps, render: (p) => p.apps.map((a) => <Tag key={a.id}>{a.name}</Tag>) },
      { key: 'startDate', title: t.start, sortable: true, render: (p) => day(p.startDate) },
      { key: 'endDate', title: t.end, sortable: true, render: (p) => day(p.endDate) },
      { key: 'status', title: t.status, sortable: true, render: (p) => <Tag>{t.statuses[p.status]}</Tag> },
    ],
    fields: [
      { name: 'name', label: t.name, required: true, maxLength: 100 },
      { name: 'teamId', label: t.team, kind: 'select', required: true, options: teams },
      { name: 'ownerId', label: t.owner, kind: 'select', options: users },
      { name: 'appIds', label: t.apps, kind: 'tags', options: apps },
      { name: 'startDate', label: t.start, kind: 'date' },
      { name: 'endDate', label: t.end, kind: 'date' },
      {
        name: 'status',
        label: t.status,
        kind: 'select',
        options: PROJECT_STATUSES.map((s) => ({ value: s, label: t.statuses[s] })),
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
  return <EntityListScreen title={title} spec={spec} />;
}
