import {
  ADMIN_API,
  APP_LANGUAGES,
  APP_STATUSES,
  type App as AppRow,
  COVERAGE_SOURCES,
  type Screen,
  type Team,
} from '@sextant/api';
import { useMutation, useQuery } from '@tanstack/react-query';
import { App, Button, Input, Modal, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { EntityListScreen } from '../../components/crud/EntityListScreen.tsx';
import type { EntitySpec } from '../../components/crud/types.ts';
import { errorMessage } from '../../lib/api-client.ts';
import { usePermission } from '../../lib/permissions.ts';
import { api } from '../../lib/session.tsx';
import { AgentsDrawer } from './AgentsDrawer.tsx';

type Check = { ok: boolean; refs: number | null; error: string | null };
const options = (values: readonly string[]) => values.map((v) => ({ value: v, label: v }));

/** Apps with their repository, environments and ingestion token (shown once, rotatable). */
export default function AppListPage({ screen }: { screen: Screen }) {
  const { message } = App.useApp();
  const may = {
    create: usePermission('create', 'App'),
    update: usePermission('update', 'App'),
    remove: usePermission('delete', 'App'),
  };
  const [token, setToken] = useState<{ app: string; token: string } | null>(null);
  const [agentsOf, setAgentsOf] = useState<AppRow | null>(null);
  const teams = useQuery({
    queryKey: [ADMIN_API.teams, 'options'],
    queryFn: () => api.get<{ items: Team[] }>(ADMIN_API.teams, { query: { perPage: 200 } }),
  });
  const check = useMutation({
    mutationFn: (app: AppRow) => api.post<Check>(ADMIN_API.appTestConnection(app.id)),
    onSuccess: (result, app) =>
      result.ok
        ? message.success(`${app.name}: the repository answered with ${result.refs ?? 0} refs.`)
        : message.error(`${app.name}: ${result.error ?? 'the repository did not answer.'}`),
    onError: (e) => message.error(errorMessage(e)),
  });
  const rotate = useMutation({
    mutationFn: (app: AppRow) => api.post<AppRow & { ingestionToken: string }>(ADMIN_API.appRotateToken(app.id)),
    onSuccess: (answer) => setToken({ app: answer.name, token: answer.ingestionToken }),
    onError: (e) => message.error(errorMessage(e)),
  });

  const spec: EntitySpec<AppRow> = {
    noun: 'app',
    path: ADMIN_API.apps,
    can: may,
    columns: [
      { key: 'name', title: 'Name', sortable: true },
      { key: 'teamName', title: 'Team' },
      { key: 'language', title: 'Language', sortable: true },
      { key: 'repoUrl', title: 'Repository', render: (a) => <Typography.Text code>{a.repoUrl}</Typography.Text> },
      { key: 'environments', title: 'Environments', render: (a) => a.environments.map((e) => <Tag key={e}>{e}</Tag>) },
      {
        key: 'status',
        title: 'Status',
        sortable: true,
        render: (a) => <Tag color={a.status === 'active' ? 'green' : undefined}>{a.status}</Tag>,
      },
    ],
    fields: [
      {
        name: 'teamId',
        label: 'Team',
        kind: 'select',
        required: true,
        options: (teams.data?.items ?? []).map((t) => ({ value: t.id, label: t.name })),
      },
      { name: 'name', label: 'Name', required: true, maxLength: 100 },
      { name: 'language', label: 'Language', kind: 'select', required: true, options: options(APP_LANGUAGES) },
      {
        name: 'repoUrl',
        label: 'Repository',
        required: true,
        maxLength: 1000,
        help: 'https://…, ssh://…, user@host:path, or an absolute path on the server',
      },
      { name: 'defaultBranch', label: 'Default branch', maxLength: 256 },
      { name: 'coverageSource', label: 'Coverage source', kind: 'select', options: options(COVERAGE_SOURCES) },
      { name: 'buildCommand', label: 'Build command', maxLength: 1000 },
      { name: 'environments', label: 'Environments (envType)', kind: 'tags', help: 'e.g. dev, test, staging' },
      { name: 'status', label: 'Status', kind: 'select', options: options(APP_STATUSES), editOnly: true },
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
          Test connection
        </Button>
        <Button size="small" onClick={() => setAgentsOf(a)}>
          Agents
        </Button>
        {may.update && (
          <Button size="small" onClick={() => rotate.mutate(a)}>
            Rotate token
          </Button>
        )}
      </Space>
    ),
  };

  return (
    <>
      <EntityListScreen title={screen.title} spec={spec} />
      <AgentsDrawer app={agentsOf} onClose={() => setAgentsOf(null)} />
      <Modal
        open={token !== null}
        title={`Ingestion token for ${token?.app ?? ''}`}
        footer={null}
        onCancel={() => setToken(null)}
      >
        <Typography.Paragraph>
          Copy it now: Sextant keeps only its hash and will not show it again. CI uploads and agents send it.
        </Typography.Paragraph>
        <Input.TextArea readOnly autoSize aria-label="Ingestion token" value={token?.token ?? ''} />
      </Modal>
    </>
  );
}
