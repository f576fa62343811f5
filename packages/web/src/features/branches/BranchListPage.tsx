import { type Branch, BranchRefreshSchema, BranchSchema, PATHS, pathTo, type Screen } from '@sextant/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Button, Select, Switch, Tag, Typography } from 'antd';
import { useState } from 'react';
import { EntityListScreen } from '../../components/crud/EntityListScreen.tsx';
import type { EntitySpec } from '../../components/crud/types.ts';
import { useNamedOptions } from '../../lib/admin-options.ts';
import { useErrorMessage } from '../../lib/error-texts.ts';
import { fill, useLocale, useTexts } from '../../lib/i18n.tsx';
import { usePermission } from '../../lib/permissions.ts';
import { useScreenTitle } from '../../lib/screen-texts.ts';
import { api } from '../../lib/session.tsx';
import { branchTexts } from './texts.ts';

/** Branches are discovered from each app's repository; tracked ones are offered when creating reports. */
export default function BranchListPage({ screen }: { screen: Screen }) {
  const { message } = App.useApp();
  const client = useQueryClient();
  const t = useTexts(branchTexts);
  const title = useScreenTitle(screen);
  const { formatDate, formatNumber } = useLocale();
  const errorMessage = useErrorMessage();
  const mayUpdate = usePermission('update', 'Branch');
  const apps = useNamedOptions(PATHS.apps);
  const [appId, setAppId] = useState<string | undefined>();
  const invalidate = () => client.invalidateQueries({ queryKey: [PATHS.branches] });
  const refresh = useMutation({
    mutationFn: (id: string) => api.post(pathTo(PATHS.appRefreshBranches, { id }), BranchRefreshSchema),
    onSuccess: (r) => {
      message.success(
        fill(t.refreshed, {
          total: formatNumber(r.total),
          added: formatNumber(r.added.length),
          moved: formatNumber(r.moved.length),
          gone: formatNumber(r.gone.length),
        }),
      );
      void invalidate();
    },
    onError: (e) => message.error(errorMessage(e)),
  });
  const track = useMutation({
    mutationFn: (b: Branch) => api.patch(pathTo(PATHS.branch, { id: b.id }), BranchSchema, { tracked: !b.tracked }),
    onSuccess: () => void invalidate(),
    onError: (e) => message.error(errorMessage(e)),
  });
  const spec: EntitySpec<Branch> = {
    noun: t.noun,
    emptyHint: t.emptyHint,
    path: PATHS.branches,
    schema: BranchSchema,
    can: { create: false, update: false, remove: false },
    extraQuery: { appId },
    filters: (
      <>
        <Select
          allowClear
          showSearch
          optionFilterProp="label"
          aria-label={t.app}
          placeholder={t.allApps}
          style={{ width: 200 }}
          options={apps}
          value={appId}
          onChange={setAppId}
        />
        {mayUpdate && (
          <Button disabled={!appId} loading={refresh.isPending} onClick={() => appId && refresh.mutate(appId)}>
            {t.refresh}
          </Button>
        )}
      </>
    ),
    columns: [
      { key: 'name', title: t.branch, sortable: true },
      {
        key: 'appId',
        title: t.app,
        render: (b) => apps.find((a) => a.value === b.appId)?.label ?? '—',
      },
      { key: 'commit', title: t.head, render: (b) => <Typography.Text code>{b.commit.slice(0, 12)}</Typography.Text> },
      {
        key: 'present',
        title: t.inRepository,
        render: (b) => (b.present ? <Tag color="green">{t.yes}</Tag> : <Tag>{t.gone}</Tag>),
      },
      {
        key: 'tracked',
        title: t.tracked,
        sortable: true,
        render: (b) => (
          <Switch
            size="small"
            aria-label={fill(t.track, { name: b.name })}
            checked={b.tracked}
            disabled={!mayUpdate}
            onChange={() => track.mutate(b)}
          />
        ),
      },
      {
        key: 'refreshedAt',
        title: t.refreshedAt,
        sortable: true,
        render: (b) => formatDate(b.refreshedAt),
      },
    ],
    fields: [],
  };
  return <EntityListScreen title={title} spec={spec} />;
}
