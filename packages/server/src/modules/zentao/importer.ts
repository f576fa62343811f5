import { nameSchema, type ZentaoImportSummary, type ZentaoRefusal } from '@sextant/api';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Executor } from '../../lib/table-repository.ts';
import type { AppsService } from '../apps/service.ts';
import { type AuditEntry, type AuditService, changedFields } from '../audit/service.ts';
import { type CaseRecord, type CasesService, caseSnapshot } from '../cases/service.ts';
import type { ProjectsService } from '../projects/service.ts';
import { type RequirementRecord, type RequirementsService, requirementSnapshot } from '../requirements/service.ts';
import type { ZentaoClient, ZentaoProduct, ZentaoStory, ZentaoTestCase } from './client.ts';

/** Who runs an import: an administrator (audited under the account) or the schedule. */
export type ImportActor = { id: string; name: string } | { id: null; name: 'schedule' };

type Counts = ZentaoImportSummary['requirements'];
type Fetched = { product: ZentaoProduct; stories: ZentaoStory[]; cases: ZentaoTestCase[] }[];
type Refuse = (kind: ZentaoRefusal['kind'], id: number, name: string, why: Why) => void;
type Why = { code: ZentaoRefusal['code']; reason: string };
type Target = { product: ZentaoProduct; projectId: string; appId: string | null; appProblem: Why | null };

const title = nameSchema(300);
const SHOWN_REFUSALS = 100;

/** A ZenTao test case's key in its app: the ZenTao id, so a re-import finds it again. */
export const caseKeyOf = (id: number) => `zentao-${id}`;

/** ZenTao's story status and stage as a requirement's status. */
export function requirementStatusOf(story: ZentaoStory): RequirementRecord['status'] {
  if (story.status === 'closed') return 'closed';
  if (['tested', 'verified', 'released'].includes(story.stage)) return 'done';
  if (['developing', 'developed', 'testing'].includes(story.stage)) return 'in-progress';
  return 'open';
}

/**
 * Reads every product's stories and test cases first, then writes requirements and cases in one
 * transaction with their audit entries: a ZenTao failure halfway through the reading stores nothing.
 * Idempotent: a story is the requirement whose key is its id, a test case the case `zentao-<id>` of
 * the product's app; a second run of unchanged data creates and updates nothing.
 */
export class ZentaoImporter {
  constructor(
    private readonly deps: {
      db: Db;
      audit: AuditService;
      projects: ProjectsService;
      apps: Pick<AppsService, 'names'>;
      requirements: Pick<RequirementsService, 'lockByKeys' | 'insertImported' | 'updateImported'>;
      cases: Pick<CasesService, 'lockByKeys' | 'insertImported' | 'updateImported'>;
    },
  ) {}

  async run(
    client: ZentaoClient,
    actor: ImportActor,
    edition: { requirements: boolean },
  ): Promise<ZentaoImportSummary> {
    const fetched: Fetched = [];
    for (const product of await client.products()) {
      fetched.push({ product, stories: await client.stories(product.id), cases: await client.testCases(product.id) });
    }
    const refusals: ZentaoRefusal[] = [];
    const refuse: Refuse = (kind, id, name, why) =>
      refusals.push({ kind, zentaoId: id, title: name.slice(0, 300), ...why });
    const targets = await this.targets(fetched, refuse);
    const summary = await this.deps.db.transaction(async (tx) => {
      // One import at a time (the button beside the schedule, several instances): the second waits.
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext('sextant-zentao-import'))`);
      const entries: AuditEntry[] = [];
      const requirements = await this.storeStories(tx, fetched, targets, edition, refuse, entries);
      const cases = await this.storeCases(tx, fetched, targets, requirements.ids, refuse, entries);
      // A product without a project refuses its stories and cases with it (listed once, as the product).
      const unplaced = fetched.filter((f) => !targets.has(f.product.id));
      requirements.counts.refused += unplaced.reduce((n, f) => n + f.stories.length, 0);
      cases.refused += unplaced.reduce((n, f) => n + f.cases.length, 0);
      const result: ZentaoImportSummary = {
        at: new Date().toISOString(),
        by: actor.name,
        products: fetched.length,
        requirements: requirements.counts,
        cases,
        refusals: refusals.slice(0, SHOWN_REFUSALS),
      };
      const { refusals: _shown, ...figures } = result;
      entries.push({
        entity: 'zentao',
        entityId: 'import',
        action: 'import',
        changes: { summary: { from: null, to: { ...figures, refusals: refusals.length } } },
      });
      if (actor.id === null) await this.deps.audit.recordByServer(tx, actor.name, entries);
      else await this.deps.audit.recordMany(tx, { id: actor.id }, entries);
      return result;
    });
    return summary;
  }

  /** Each product's project (same name) and the one app its cases go to. */
  private async targets(fetched: Fetched, refuse: Refuse) {
    const projectIds = await this.deps.projects.idsByName(fetched.map((f) => f.product.name));
    const targets = new Map<number, Target>();
    for (const { product } of fetched) {
      const projectId = projectIds.get(product.name);
      if (!projectId) {
        refuse('product', product.id, product.name, {
          code: 'no-project',
          reason: `No project is named "${product.name}".`,
        });
        continue;
      }
      const appIds = (await this.deps.projects.appIdsOf(projectId)) ?? [];
      const appId = appIds.length === 1 ? (appIds[0] ?? null) : await this.appNamed(appIds, product.code);
      const appProblem: Why | null = appId
        ? null
        : {
            code: 'no-app',
            reason: `Project "${product.name}" delivers ${appIds.length} apps and none is named "${product.code}" (the product's code).`,
          };
      targets.set(product.id, { product, projectId, appId, appProblem });
    }
    return targets;
  }

  /** Among a project's apps, the one named as the product's code (letters compared without case). */
  private async appNamed(appIds: string[], code: string): Promise<string | null> {
    if (appIds.length === 0 || code.trim() === '') return null;
    const names = await this.deps.apps.names(appIds);
    const wanted = code.trim().toLowerCase();
    return [...names].find(([, name]) => name.toLowerCase() === wanted)?.[0] ?? null;
  }

  private async storeStories(
    tx: Executor,
    fetched: Fetched,
    targets: Map<number, Target>,
    edition: { requirements: boolean },
    refuse: Refuse,
    entries: AuditEntry[],
  ) {
    const counts: Counts = { created: 0, updated: 0, unchanged: 0, refused: 0 };
    const ids = new Map<number, string>();
    const stories = fetched.flatMap((f) => (targets.has(f.product.id) ? f.stories : []));
    const existing = new Map(
      (
        await this.deps.requirements.lockByKeys(
          tx,
          stories.map((s) => String(s.id)),
        )
      ).map((r) => [r.key, r]),
    );
    const seen = new Set<number>();
    for (const story of stories) {
      const target = targets.get(story.product) as Target;
      const wanted = title.safeParse(story.title);
      const why: Why | null = !edition.requirements
        ? { code: 'lite', reason: 'The lite edition has no requirements.' }
        : seen.has(story.id)
          ? { code: 'duplicate', reason: 'Listed under more than one product.' }
          : !wanted.success
            ? { code: 'title', reason: `Title: ${wanted.error.issues[0]?.message ?? 'invalid'}` }
            : existing.get(String(story.id)) && existing.get(String(story.id))?.projectId !== target.projectId
              ? { code: 'other-project', reason: `Requirement ${story.id} belongs to another project.` }
              : null;
      seen.add(story.id);
      if (why || !wanted.success) {
        counts.refused++;
        refuse('requirement', story.id, story.title, why ?? { code: 'title', reason: 'Title: invalid' });
        continue;
      }
      const values = { title: wanted.data, status: requirementStatusOf(story) };
      const before = existing.get(String(story.id));
      if (!before) {
        const row = await this.deps.requirements.insertImported(tx, {
          key: String(story.id),
          projectId: target.projectId,
          ...values,
        });
        ids.set(story.id, row.id);
        counts.created++;
        const changes = changedFields({}, requirementSnapshot(row));
        entries.push({ entity: 'requirement', entityId: row.id, action: 'import', changes });
        continue;
      }
      ids.set(story.id, before.id);
      if (before.title === values.title && before.status === values.status) {
        counts.unchanged++;
        continue;
      }
      const after = await this.deps.requirements.updateImported(tx, before.id, values);
      counts.updated++;
      const changes = changedFields(requirementSnapshot(before), requirementSnapshot(after));
      entries.push({ entity: 'requirement', entityId: before.id, action: 'import', changes });
    }
    return { counts, ids };
  }

  private async storeCases(
    tx: Executor,
    fetched: Fetched,
    targets: Map<number, Target>,
    storyIds: Map<number, string>,
    refuse: Refuse,
    entries: AuditEntry[],
  ): Promise<Counts> {
    const counts: Counts = { created: 0, updated: 0, unchanged: 0, refused: 0 };
    const cases = fetched.flatMap((f) => (targets.has(f.product.id) ? f.cases : []));
    const appIds = [...targets.values()].flatMap((t) => (t.appId ? [t.appId] : []));
    const existing = new Map(
      (
        await this.deps.cases.lockByKeys(
          tx,
          appIds,
          cases.map((c) => caseKeyOf(c.id)),
        )
      ).map((c) => [`${c.appId} ${c.key}`, c]),
    );
    const seen = new Set<number>();
    for (const testCase of cases) {
      const target = targets.get(testCase.product) as Target;
      const wanted = title.safeParse(testCase.title);
      const why: Why | null = !target.appId
        ? target.appProblem
        : seen.has(testCase.id)
          ? { code: 'duplicate', reason: 'Listed under more than one product.' }
          : !wanted.success
            ? { code: 'title', reason: `Title: ${wanted.error.issues[0]?.message ?? 'invalid'}` }
            : null;
      seen.add(testCase.id);
      if (why || !wanted.success || !target.appId) {
        counts.refused++;
        refuse('case', testCase.id, testCase.title, why ?? { code: 'title', reason: 'Title: invalid' });
        continue;
      }
      const values = {
        title: wanted.data,
        type: testCase.auto === 'auto' || testCase.auto === 'unit' ? 'automated' : 'manual',
        tags: ['zentao', ...(/^[^;,\p{Cc}]{1,32}$/u.test(testCase.type) ? [testCase.type] : [])],
        requirementId: testCase.story === null ? null : (storyIds.get(testCase.story) ?? null),
      };
      const before: CaseRecord | undefined = existing.get(`${target.appId} ${caseKeyOf(testCase.id)}`);
      if (!before) {
        const row = await this.deps.cases.insertImported(tx, {
          appId: target.appId,
          key: caseKeyOf(testCase.id),
          ...values,
        });
        counts.created++;
        entries.push({
          entity: 'case',
          entityId: row.id,
          action: 'import',
          changes: changedFields({}, caseSnapshot(row)),
        });
        continue;
      }
      const same =
        before.title === values.title &&
        before.type === values.type &&
        before.requirementId === values.requirementId &&
        JSON.stringify(before.tags) === JSON.stringify(values.tags);
      if (same) {
        counts.unchanged++;
        continue;
      }
      const after = await this.deps.cases.updateImported(tx, before.id, values);
      counts.updated++;
      const changes = changedFields(caseSnapshot(before), caseSnapshot(after));
      entries.push({ entity: 'case', entityId: before.id, action: 'import', changes });
    }
    return counts;
  }
}
