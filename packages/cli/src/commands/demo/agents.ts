import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { PATHS } from '@sextant/api';
import type { DemoApi } from './client.ts';
import { DEMO_APPS, type DemoApp } from './manifest.ts';

/** The agent beside each demo app in its QA environment; the functional uploads carry its id. */
export const demoAgentOf = (app: DemoApp) => `${app.name}-qa-agent`;

/**
 * A heart-beat of each app's QA agent (env test, the latest tag's commit, functional tests), as
 * `sextant agent` sends them: app analytics and the cockpit show them alive, the message centre per
 * report (issue 35). Each demo run beats again; an agent is alive for ten minutes after its beat.
 */
export async function beatDemoAgents(api: DemoApi, reposDir: string, log: (line: string) => void): Promise<void> {
  for (const app of DEMO_APPS) {
    const repo = join(reposDir, `${app.name}.git`);
    const commit = execFileSync('git', ['--git-dir', repo, 'rev-parse', 'v3^{commit}'], { encoding: 'utf8' }).trim();
    await api.call('POST', PATHS.agentHeartbeat, {
      app: app.name,
      agentId: demoAgentOf(app),
      envType: 'test',
      status: 'HEART_BEAT_DONE',
      version: 'demo',
      commit,
      testType: 2,
    });
  }
  log(`heart-beats sent by ${DEMO_APPS.length} QA agents`);
}
