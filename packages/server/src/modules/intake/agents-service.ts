import type { Agent, AgentBeatAnswerSchema, AgentHeartbeatRequestSchema } from '@sextant/api';
import type { z } from 'zod';
import { ApiError } from '../../errors.ts';
import type { MessagesService } from '../messages/service.ts';
import type { AgentRow, AppRef, IntakeRepository } from './repository.ts';

export type Heartbeat = z.infer<typeof AgentHeartbeatRequestSchema>;
type AgentBeatAnswer = z.infer<typeof AgentBeatAnswerSchema>;

/** The reports an agent's coverage feeds, from the reports module (issue 37). */
export type ReportsServed = (agent: {
  appId: string;
  envType: string;
  testType: number | null;
  commit: string;
}) => Promise<string[]>;

function toAgent(row: AgentRow): Agent {
  return {
    id: row.id,
    appId: row.appId,
    agentId: row.agentId,
    envType: row.envType,
    ip: row.ip,
    version: row.version,
    lastStatus: row.lastStatus,
    lastError: row.lastError,
    lastHeartbeatAt: row.lastHeartbeatAt.toISOString(),
  };
}

/** `sextant agent` processes beside apps under test: their last heart-beat, and the message centre told. */
export class AgentsService {
  constructor(
    private readonly repository: IntakeRepository,
    private readonly messages: MessagesService,
    private readonly reportsServed: ReportsServed,
  ) {}

  /**
   * Records the heart-beat on the app's agents list, and publishes it once per report the agent feeds
   * (its app, environment and test type, made for its commit): the message centre keeps the last
   * heart-beat time and IP per report and agent (specification point 3). An agent that names no
   * commit, or whose commit has no report yet, serves none: its message's report_id is the app's id,
   * as the message centre keeps an idle agent's heart-beats.
   */
  async heartbeat(app: AppRef, beat: Heartbeat, ip: string | null): Promise<AgentBeatAnswer> {
    const at = new Date();
    const lastError = beat.status === 'HEART_BEAT_ERROR' ? beat.error?.trim() || 'unknown error' : null;
    const row = await this.repository.upsertAgent({
      appId: app.id,
      agentId: beat.agentId,
      envType: beat.envType,
      ip,
      version: beat.version ?? null,
      lastStatus: beat.status,
      lastError,
      lastHeartbeatAt: at,
    });
    const reportIds = beat.commit
      ? await this.reportsServed({
          appId: app.id,
          envType: beat.envType,
          testType: beat.testType ?? null,
          commit: beat.commit,
        })
      : [];
    for (const reportId of reportIds.length > 0 ? reportIds : [app.id]) {
      await this.messages.publish({
        title: `Agent ${beat.agentId} of ${app.name} (${beat.envType})`,
        text: lastError ?? 'alive',
        date: at,
        message_type: 'AGENT_HEARTBEAT',
        report_id: reportId,
        agent_id: beat.agentId,
        status: beat.status,
        ip,
      });
    }
    return { ...toAgent(row), reportIds };
  }

  async list(app: AppRef | null): Promise<Agent[]> {
    if (!app) throw new ApiError(404, 'not-found', 'No such app.');
    return (await this.repository.agents(app.id)).map(toAgent);
  }
}
