import { ADMIN_API, type Screen, VERSION_STATUSES, type Version } from '@sextant/api';
import { Tag, Typography } from 'antd';
import { EntityListScreen } from '../../components/crud/EntityListScreen.tsx';
import type { EntitySpec } from '../../components/crud/types.ts';
import { useNamedOptions } from '../../lib/admin-options.ts';
import { usePermission } from '../../lib/permissions.ts';

/** A version compares the new revision of an app with its base: the pair every report is made of. */
export default function VersionListPage({ screen }: { screen: Screen }) {
  const may = {
    create: usePermission('create', 'Version'),
    update: usePermission('update', 'Version'),
    remove: usePermission('delete', 'Version'),
  };
  const editing = may.create || may.update;
  const projects = useNamedOptions(ADMIN_API.projects, editing);
  const apps = useNamedOptions(ADMIN_API.apps, editing);
  const spec: EntitySpec<Version> = {
    noun: 'version',
    path: ADMIN_API.versions,
    can: may,
    columns: [
      { key: 'name', title: 'Name', sortable: true },
      { key: 'projectName', title: 'Project' },
      { key: 'appName', title: 'App' },
      {
        key: 'refs',
        title: 'Base → new',
        render: (v) => (
          <Typography.Text code>
            {v.baseRef} → {v.newRef}
          </Typography.Text>
        ),
      },
      { key: 'plannedRelease', title: 'Release', sortable: true, render: (v) => v.plannedRelease ?? '—' },
      { key: 'status', title: 'Status', sortable: true, render: (v) => <Tag>{v.status}</Tag> },
    ],
    fields: [
      { name: 'projectId', label: 'Project', kind: 'select', required: true, options: projects },
      { name: 'appId', label: 'App', kind: 'select', required: true, options: apps },
      { name: 'name', label: 'Name', required: true, maxLength: 64 },
      { name: 'newRef', label: 'New version ref', required: true, maxLength: 256, help: 'branch, tag or commit' },
      { name: 'baseRef', label: 'Base version ref', required: true, maxLength: 256 },
      { name: 'plannedRelease', label: 'Planned release', kind: 'date' },
      {
        name: 'status',
        label: 'Status',
        kind: 'select',
        options: VERSION_STATUSES.map((s) => ({ value: s, label: s })),
      },
    ],
    toFormValues: (v) => ({ ...v }),
    fromFormValues: (v) => ({ ...v, plannedRelease: v.plannedRelease ?? null }),
  };
  return <EntityListScreen title={screen.title} spec={spec} />;
}
