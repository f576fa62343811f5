import type { Db } from '../../db/client.ts';
import { ReportsRepository } from './repository.ts';

/** At most this many reports take one heart-beat: an agent left running for months feeds the newest. */
const MOST_REPORTS_PER_BEAT = 20;

/** Which reports an agent's uploads feed, for the intake's heart-beats (issue 37, specification point 3). */
export class ServedReports {
  private readonly repository: ReportsRepository;

  constructor(db: Db) {
    this.repository = new ReportsRepository(db);
  }

  /** The ids of the newest reports of this app, environment and test type made for this commit. */
  async ids(agent: { appId: string; envType: string; testType: number | null; commit: string }): Promise<string[]> {
    return (await this.repository.servedBy(agent, MOST_REPORTS_PER_BEAT)).map((r) => r.id);
  }
}
