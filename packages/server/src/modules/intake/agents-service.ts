import type { Agent, AgentHeartbeatRequestSchema } from '@sextant/api';
import type { z } from 'zod';
import { ApiError } from '../../errors.ts';
import type { MessagesService } from '../messages/service.ts';
import type { AgentRow, AppRef, IntakeRepository } from './repository.ts';

export type Heartbeat = z.infer<typeof AgentHeartbeatRequestSchema>;

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
  ) {}

  /**
   * Records the heart-beat and publishes it. An idle agent serves no report, so the message's
   * report_id is the app's id: the message centre keeps the last heart-beat per app and agent, and
   * trims each app's heart-beat history like a report's.
   */
  async heartbeat(app: AppRef, beat: Heartbeat, ip: string | null): Promise<Agent> {
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
    await this.messages.publish({
      title: `Agent ${beat.agentId} of ${app.name} (${beat.envType})`,
      text: lastError ?? 'alive',
      date: at,
      message_type: 'AGENT_HEARTBEAT',
      report_id: app.id,
      agent_id: beat.agentId,
      status: beat.status,
      ip,
    });
    return toAgent(row);
  }

  async list(app: AppRef | null): Promise<Agent[]> {
    if (!app) throw new ApiError(404, 'not-found', 'No such app.');
    return (await this.repository.agents(app.id)).map(toAgent);
  }
}
