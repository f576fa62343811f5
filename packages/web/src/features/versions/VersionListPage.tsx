import { PATHS, type Screen, VERSION_STATUSES, type Version, VersionSchema } from '@sextant/api';
import { Tag, Typography } from 'antd';
import { EntityListScreen } from '../../components/crud/EntityListScreen.tsx';
import type { EntitySpec } from '../../components/crud/types.ts';
import { useNamedOptions } from '../../lib/admin-options.ts';
import { useLocale, useTexts } from '../../lib/i18n.tsx';
import { usePermission } from '../../lib/permissions.ts';
import { useScreenTitle } from '../../lib/screen-texts.ts';
import { versionTexts } from './texts.ts';

/** A version compares the new revision of an app with its base: the pair every report is made of. */
export default function VersionListPage({ screen }: { screen: Screen }) {
  const t = useTexts(versionTexts);
  const title = useScreenTitle(screen);
  const { formatDate } = useLocale();
  const may = {
    create: usePermission('create', 'Version'),
    update: usePermission('update', 'Version'),
    remove: usePermission('delete', 'Version'),
  };
  const editing = may.create || may.update;
  const projects = useNamedOptions(PATHS.projects, editing);
  const apps = useNamedOptions(PATHS.apps, editing);
  const spec: EntitySpec<Version> = {
    noun: t.noun,
    emptyHint: t.emptyHint,
    path: PATHS.versions,
    schema: VersionSchema,
    can: may,
    columns: [
      { key: 'name', title: t.name, sortable: true },
      { key: 'projectName', title: t.project },
      { key: 'appName', title: t.app },
      {
        key: 'refs',
        title: t.refs,
        render: (v) => (
          <Typography.Text code>
            {v.baseRef} → {v.newRef}
          </Typography.Text>
        ),
      },
      {
        key: 'plannedRelease',
        title: t.release,
        sortable: true,
        // Local midnight of the day: a bare YYYY-MM-DD would be read as UTC.
        render: (v) => (v.plannedRelease ? formatDate(`${v.plannedRelease}T00:00`, false) : '—'),
      },
      { key: 'status', title: t.status, sortable: true, render: (v) => <Tag>{t.statuses[v.status]}</Tag> },
    ],
    fields: [
      { name: 'projectId', label: t.project, kind: 'select', required: true, options: projects },
      { name: 'appId', label: t.app, kind: 'select', required: true, options: apps },
      { name: 'name', label: t.name, required: true, maxLength: 64 },
      { name: 'newRef', label: t.newRef, required: true, maxLength: 256, help: t.newRefHelp },
      { name: 'baseRef', label: t.baseRef, required: true, maxLength: 256 },
      { name: 'plannedRelease', label: t.plannedRelease, kind: 'date' },
      {
        name: 'status',
        label: t.status,
        kind: 'select',
        options: VERSION_STATUSES.map((s) => ({ value: s, label: t.statuses[s] })),
      },
    ],
    toFormValues: (v) => ({ ...v }),
    fromFormValues: (v) => ({ ...v, plannedRelease: v.plannedRelease ?? null }),
  };
  return <EntityListScreen title={title} spec={spec} />;
}
