import { ADMIN_API, type Branch, type BranchRefresh, type Screen } from '@sextant/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Button, Select, Switch, Tag, Typography } from 'antd';
import { useState } from 'react';
import { EntityListScreen } from '../../components/crud/EntityListScreen.tsx';
import type { EntitySpec } from '../../components/crud/types.ts';
import { useNamedOptions } from '../../lib/admin-options.ts';
import { errorMessage } from '../../lib/api-client.ts';
import { usePermission } from '../../lib/permissions.ts';
import { api } from '../../lib/session.tsx';

/** Branches are discovered from each app's repository; tracked ones are offered when creating reports. */
export default function BranchListPage({ screen }: { screen: Screen }) {
  const { message } = App.useApp();
  const client = useQueryClient();
  const mayUpdate = usePermission('update', 'Branch');
  const apps = useNamedOptions(ADMIN_API.apps);
  const [appId, setAppId] = useState<string | undefined>();
  const invalidate = () => client.invalidateQueries({ queryKey: [ADMIN_API.branches] });
  const refresh = useMutation({
    mutationFn: (id: string) => api.post<BranchRefresh>(ADMIN_API.appRefreshBranches(id)),
    onSuccess: (r) => {
      message.success(`${r.total} branches: ${r.added.length} new, ${r.moved.length} moved, ${r.gone.length} gone.`);
      void invalidate();
    },
    onError: (e) => message.error(errorMessage(e)),
  });
  const track = useMutation({
    mutationFn: (b: Branch) => api.patch<Branch>(ADMIN_API.branch(b.id), { tracked: !b.tracked }),
    onSuccess: () => void invalidate(),
    onError: (e) => message.error(errorMessage(e)),
  });
  const spec: EntitySpec<Branch> = {
    noun: 'branch',
    path: ADMIN_API.branches,
    can: { create: false, update: false, remove: false },
    extraQuery: { appId },
    filters: (
      <>
        <Select
          allowClear
          showSearch
          optionFilterProp="label"
          aria-label="App"
          placeholder="All apps"
          style={{ width: 200 }}
          options={apps}
          value={appId}
          onChange={setAppId}
        />
        {mayUpdate && (
          <Button disabled={!appId} loading={refresh.isPending} onClick={() => appId && refresh.mutate(appId)}>
            Refresh from repository
          </Button>
        )}
      </>
    ),
    columns: [
      { key: 'name', title: 'Branch', sortable: true },
      {
        key: 'appId',
        title: 'App',
        render: (b) => apps.find((a) => a.value === b.appId)?.label ?? '—',
      },
      { key: 'commit', title: 'Head', render: (b) => <Typography.Text code>{b.commit.slice(0, 12)}</Typography.Text> },
      {
        key: 'present',
        title: 'In repository',
        render: (b) => (b.present ? <Tag color="green">yes</Tag> : <Tag>gone</Tag>),
      },
      {
        key: 'tracked',
        title: 'Tracked',
        sortable: true,
        render: (b) => (
          <Switch
            size="small"
            aria-label={`Track ${b.name}`}
            checked={b.tracked}
            disabled={!mayUpdate}
            onChange={() => track.mutate(b)}
          />
        ),
      },
      {
        key: 'refreshedAt',
        title: 'Refreshed',
        sortable: true,
        render: (b) => new Date(b.refreshedAt).toLocaleString(),
      },
    ],
    fields: [],
  };
  return <EntityListScreen title={screen.title} spec={spec} />;
}
