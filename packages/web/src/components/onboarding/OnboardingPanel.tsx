import { CopyOutlined } from '@ant-design/icons';
import { App, Button, Card, Space, Typography } from 'antd';
import { fill, useTexts } from '../../lib/i18n.tsx';
import { onboardingCommands } from './commands.ts';
import { onboardingTexts } from './texts.ts';

function CommandBlock({ title, command }: { title: string; command: string }) {
  const t = useTexts(onboardingTexts);
  const { message } = App.useApp();
  const copy = () =>
    navigator.clipboard.writeText(command).then(
      () => message.success(t.copied),
      () => message.error(t.copyFailed),
    );
  return (
    <div className="onboarding-command">
      <Space style={{ justifyContent: 'space-between', width: '100%' }}>
        <Typography.Text strong>{title}</Typography.Text>
        <Button size="small" icon={<CopyOutlined />} onClick={copy} aria-label={`${t.copy}: ${title}`}>
          {t.copy}
        </Button>
      </Space>
      <pre className="onboarding-code">{command}</pre>
    </div>
  );
}

/** What an empty coverage list shows: how to get data for this app, each command with a copy button. */
export function OnboardingPanel(props: { app: string; environments?: string[]; showTraces?: boolean }) {
  const t = useTexts(onboardingTexts);
  const envs = props.environments ?? [];
  const commands = onboardingCommands({
    server: window.location.origin,
    app: props.app,
    ciEnv: envs[0],
    testEnv: envs[1] ?? envs[0],
  });
  return (
    <Card size="small" title={fill(t.title, { app: props.app })} className="onboarding-panel">
      <Typography.Paragraph type="secondary">{t.intro}</Typography.Paragraph>
      <CommandBlock title={t.ci} command={commands.ci} />
      <CommandBlock title={t.agent} command={commands.agent} />
      {props.showTraces && <CommandBlock title={t.otlp} command={commands.otlp} />}
    </Card>
  );
}
