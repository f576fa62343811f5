import {
  APP_LANGUAGES,
  APP_STATUSES,
  type App as AppRow,
  AppSchema,
  AppWithTokenSchema,
  COVERAGE_SOURCES,
  ConnectionCheckSchema,
  PATHS,
  pageSchema,
  pathTo,
  type Screen,
  TeamSchema,
} from '@sextant/api';
import { useMutation, useQuery } from '@tanstack/react-query';
import { App, Button, Input, Modal, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { EntityListScreen } from '../../components/crud/EntityListScreen.tsx';
import type { EntitySpec } from '../../components/crud/types.ts';
import { useErrorMessage } from '../../lib/error-texts.ts';
import { fill, useTexts } from '../../lib/i18n.tsx';
import { usePermission } from '../../lib/permissions.ts';
import { useScreenTitle } from '../../lib/screen-texts.ts';
import { api } from '../../lib/session.tsx';
import { AgentsDrawer } from './AgentsDrawer.tsx';
import { appTexts } from './texts.ts';

/** Apps with their repository, environments and ingestion token (shown once, rotatable). */
export default function AppListPage({ screen }: { screen: Screen }) {
  const { message } = App.useApp();
  const t = useTexts(appTexts);
  const errorMessage = useErrorMessage();
  const labelled = (values: readonly string[], labels: Record<string, string> = {}) =>
    values.map((v) => ({ value: v, label: labels[v] ?? v }));
  const may = {
    create: usePermission('create', 'App'),
    update: usePermission('update', 'App'),
    remove: usePermission('delete', 'App'),
  };
  const [token, setToken] = useState<{ app: string; token: string } | null>(null);
  const [agentsOf, setAgentsOf] = useState<AppRow | null>(null);
  const teams = useQuery({
    queryKey: [PATHS.teams, 'options'],
    queryFn: () => api.get(PATHS.teams, pageSchema(TeamSchema), { query: { perPage: 200 } }),
  });
  const check = useMutation({
    mutationFn: (app: AppRow) => api.post(pathTo(PATHS.appTestConnection, { id: app.id }), ConnectionCheckSchema),
    onSuccess: (result, app) =>
      result.ok
        ? message.success(fill(t.answered, { app: app.name, refs: result.refs ?? 0 }))
        : message.error(`${app.name}: ${result.error ?? t.noAnswer}`),
    onError: (e) => message.error(errorMessage(e)),
  });
  const rotate = useMutation({
    mutationFn: (app: AppRow) => api.post(pathTo(PATHS.appRotateToken, { id: app.id }), AppWithTokenSchema),
    onSuccess: (answer) => setToken({ app: answer.name, token: answer.ingestionToken }),
    onError: (e) => message.error(errorMessage(e)),
  });

  const spec: EntitySpec<AppRow> = {
    noun: t.noun,
    emptyHint: t.emptyHint,
    path: PATHS.apps,
    schema: AppSchema,
    savedSchema: AppWithTokenSchema,
    can: may,
    columns: [
      { key: 'name', title: t.name, sortable: true },
      { key: 'teamName', title: t.team },
      { key: 'language', title: t.language, sortable: true },
      { key: 'repoUrl', title: t.repository, render: (a) => <Typography.Text code>{a.repoUrl}</Typography.Text> },
      { key: 'environments', title: t.environments, render: (a) => a.environments.map((e) => <Tag key={e}>{e}</Tag>) },
      {
        key: 'status',
        title: t.status,
        sortable: true,
        render: (a) => <Tag color={a.status === 'active' ? 'green' : undefined}>{t.statuses[a.status]}</Tag>,
      },
    ],
    fields: [
      {
        name: 'teamId',
        label: t.team,
        kind: 'select',
        required: true,
        options: (teams.data?.items ?? []).map((t) => ({ value: t.id, label: t.name })),
      },
      { name: 'name', label: t.name, required: true, maxLength: 100 },
      { name: 'language', label: t.language, kind: 'select', required: true, options: labelled(APP_LANGUAGES) },
      {
        name: 'repoUrl',
        label: t.repository,
        required: true,
        maxLength: 1000,
        help: t.repositoryHelp,
      },
      { name: 'defaultBranch', label: t.defaultBranch, maxLength: 256 },
      {
        name: 'coverageSource',
        label: t.coverageSource,
        kind: 'select',
        options: labelled(COVERAGE_SOURCES, t.sources),
      },
      { name: 'buildCommand', label: t.buildCommand, maxLength: 1000 },
      { name: 'environments', label: t.environmentsField, kind: 'tags', help: t.environmentsHelp },
      { name: 'status', label: t.status, kind: 'select', options: labelled(APP_STATUSES, t.statuses), editOnly: true },
    ],
    toFormValues: (a) => ({ ...a }),
    fromFormValues: (v) => ({ ...v, buildCommand: v.buildCommand || null }),
    onSaved: (answer, created) => {
      const withToken = answer as { name?: string; ingestionToken?: string };
      if (created && withToken.ingestionToken) setToken({ app: withToken.name ?? '', token: withToken.ingestionToken });
    },
    rowActions: (a) => (
      <Space>
        <Button size="small" onClick={() => check.mutate(a)} loading={check.isPending && check.variables?.id === a.id}>
          {t.testConnection}
        </Button>
        <Button size="small" onClick={() => setAgentsOf(a)}>
          {t.agents}
        </Button>
        {may.update && (
          <Button size="small" onClick={() => rotate.mutate(a)}>
            {t.rotateToken}
          </Button>
        )}
      </Space>
    ),
  };

  return (
    <>
      <EntityListScreen title={useScreenTitle(screen)} spec={spec} />
      <AgentsDrawer app={agentsOf} onClose={() => setAgentsOf(null)} />
      <Modal
        open={token !== null}
        title={fill(t.tokenFor, { app: token?.app ?? '' })}
        footer={null}
        onCancel={() => setToken(null)}
      >
        <Typography.Paragraph>{t.tokenNote}</Typography.Paragraph>
        <Input.TextArea readOnly autoSize aria-label={t.tokenLabel} value={token?.token ?? ''} />
      </Modal>
    </>
  );
}
