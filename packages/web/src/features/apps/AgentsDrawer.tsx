import type { Agent, App as AppRow } from '@sextant/api';
import { Alert, Drawer, Empty, Table, Tag, Tooltip, Typography } from 'antd';
import { errorMessage } from '../../lib/api-client.ts';
import { agentCommand, timeAgo } from './agent-text.ts';
import { useAppAgents } from './api/get-app-agents.ts';

const columns = [
  { key: 'agentId', title: 'Agent', dataIndex: 'agentId' },
  { key: 'envType', title: 'Environment', render: (a: Agent) => <Tag>{a.envType}</Tag> },
  { key: 'ip', title: 'IP', render: (a: Agent) => a.ip ?? '—' },
  { key: 'version', title: 'Version', render: (a: Agent) => a.version ?? '—' },
  {
    key: 'lastStatus',
    title: 'Last status',
    render: (a: Agent) => (
      <Tooltip title={a.lastError ?? undefined}>
        <Tag color={a.lastStatus === 'HEART_BEAT_DONE' ? 'green' : 'red'}>{a.lastStatus}</Tag>
      </Tooltip>
    ),
  },
  {
    key: 'lastHeartbeatAt',
    title: 'Last heart-beat',
    render: (a: Agent) => (
      <span title={new Date(a.lastHeartbeatAt).toLocaleString()}>{timeAgo(a.lastHeartbeatAt)}</span>
    ),
  },
];

/** The `sextant agent` processes beside an app under test, with their last heart-beat. */
export function AgentsDrawer({ app, onClose }: { app: AppRow | null; onClose: () => void }) {
  const agents = useAppAgents(app?.id ?? null);
  return (
    <Drawer open={app !== null} onClose={onClose} width={860} title={`Agents of ${app?.name ?? ''}`}>
      {agents.isError && <Alert type="error" showIcon message={errorMessage(agents.error)} />}
      {app && agents.data?.length === 0 && (
        <>
          <Empty description="No agent has sent a heart-beat for this app yet." />
          <Typography.Paragraph style={{ marginTop: 24 }}>Start one beside the app under test:</Typography.Paragraph>
          <Typography.Paragraph copyable={{ text: agentCommand(app, window.location.origin) }}>
            <pre data-testid="agent-command" style={{ whiteSpace: 'pre-wrap' }}>
              {agentCommand(app, window.location.origin)}
            </pre>
          </Typography.Paragraph>
        </>
      )}
      {(agents.data?.length ?? 0) > 0 && (
        <Table<Agent>
          rowKey="id"
          size="small"
          pagination={false}
          loading={agents.isFetching && !agents.data}
          columns={columns}
          dataSource={agents.data}
        />
      )}
    </Drawer>
  );
}
