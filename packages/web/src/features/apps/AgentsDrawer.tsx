import type { Agent, App as AppRow } from '@sextant/api';
import { Alert, Drawer, Empty, Table, Tag, Tooltip, Typography } from 'antd';
import { onboardingCommands } from '../../components/onboarding/commands.ts';
import { useErrorMessage } from '../../lib/error-texts.ts';
import { fill, useLocale, useTexts } from '../../lib/i18n.tsx';
import { timeAgo } from './agent-text.ts';
import { useAppAgents } from './api/get-app-agents.ts';
import { appTexts } from './texts.ts';

function CommandBlock({ text, testId }: { text: string | undefined; testId: string }) {
  return (
    <Typography.Paragraph copyable={{ text }}>
      <pre data-testid={testId} style={{ whiteSpace: 'pre-wrap' }}>
        {text}
      </pre>
    </Typography.Paragraph>
  );
}

/** The `sextant agent` processes beside an app under test, with their last heart-beat. */
export function AgentsDrawer({ app, onClose }: { app: AppRow | null; onClose: () => void }) {
  const t = useTexts(appTexts);
  const { locale, formatDate } = useLocale();
  const errorMessage = useErrorMessage();
  const agents = useAppAgents(app?.id ?? null);
  const columns = [
    { key: 'agentId', title: t.agent, dataIndex: 'agentId' },
    { key: 'envType', title: t.environment, render: (a: Agent) => <Tag>{a.envType}</Tag> },
    { key: 'ip', title: t.ip, render: (a: Agent) => a.ip ?? '—' },
    { key: 'version', title: t.version, render: (a: Agent) => a.version ?? '—' },
    {
      key: 'lastStatus',
      title: t.lastStatus,
      render: (a: Agent) => (
        <Tooltip title={a.lastError ?? undefined}>
          <Tag color={a.lastStatus === 'HEART_BEAT_DONE' ? 'green' : 'red'}>{a.lastStatus}</Tag>
        </Tooltip>
      ),
    },
    {
      key: 'lastHeartbeatAt',
      title: t.lastHeartbeat,
      render: (a: Agent) => (
        <span title={formatDate(a.lastHeartbeatAt)}>{timeAgo(a.lastHeartbeatAt, locale, t.justNow)}</span>
      ),
    },
  ];
  const commands = app
    ? onboardingCommands({ server: window.location.origin, app: app.name, testEnv: app.environments[0] })
    : null;
  // An app fed by a JaCoCo agent gets the dumping command first; other JVM apps see it as a choice.
  const jacocoFirst = app?.coverageSource === 'jacoco-agent';
  const javaApp = jacocoFirst || app?.language === 'java' || app?.language === 'kotlin';
  return (
    <Drawer open={app !== null} onClose={onClose} width={860} title={fill(t.agentsOf, { app: app?.name ?? '' })}>
      {agents.isError && <Alert type="error" showIcon message={errorMessage(agents.error)} />}
      {app && agents.data?.length === 0 && (
        <>
          <Empty description={t.noAgents} />
          <Typography.Paragraph style={{ marginTop: 24 }}>{t.startOne}</Typography.Paragraph>
          <CommandBlock testId="agent-command" text={jacocoFirst ? commands?.jacocoAgent : commands?.agent} />
          {jacocoFirst && <Typography.Paragraph type="secondary">{t.jacocoNeeds}</Typography.Paragraph>}
          {javaApp && !jacocoFirst && (
            <>
              <Typography.Paragraph>{t.orJacoco}</Typography.Paragraph>
              <CommandBlock testId="jacoco-agent-command" text={commands?.jacocoAgent} />
              <Typography.Paragraph type="secondary">{t.jacocoNeeds}</Typography.Paragraph>
            </>
          )}
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
