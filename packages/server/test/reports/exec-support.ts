import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildShop } from '@sextant/cli/testing';
import { DEBIAN_JACOCO_LIB } from '@sextant/coverage/node';
import { sql } from 'drizzle-orm';
import type { Db } from '../../src/db/client.ts';
import type { UploadStorage } from '../../src/modules/intake/upload-store.ts';
import type { useReportsApp } from './pipeline-support.ts';

const JARS = [
  'org.jacoco.ant',
  'org.jacoco.core',
  'org.jacoco.report',
  'org.jacoco.agent',
  'asm',
  'asm-commons',
  'asm-tree',
];

/** JaCoCo's own report (its Ant task) over several exec files at once: the reference. */
export function jacocoReport(dir: string, execs: string[], classes: string): string {
  const xml = join(dir, 'reference.xml');
  const build = join(dir, 'reference-build.xml');
  const path = JARS.map((jar) => `<pathelement location="${join(DEBIAN_JACOCO_LIB, `${jar}.jar`)}"/>`).join('');
  const files = execs.map((exec) => `<file file="${exec}"/>`).join('');
  writeFileSync(
    build,
    `<project default="r" xmlns:jacoco="antlib:org.jacoco.ant"><taskdef uri="antlib:org.jacoco.ant" resource="org/jacoco/ant/antlib.xml"><classpath>${path}</classpath></taskdef><target name="r"><jacoco:report><executiondata>${files}</executiondata><structure name="shop"><classfiles><path location="${classes}"/></classfiles></structure><xml destfile="${xml}"/></jacoco:report></target></project>`,
  );
  execFileSync('ant', ['-q', '-noinput', '-f', build]);
  return xml;
}

/** A repository holding the shop's sources where Maven puts them, one commit. */
export function shopRepository(dir: string, shopDir: string): { repo: string; sha: string } {
  const repo = join(dir, 'repo');
  mkdirSync(join(repo, 'src/main/java/demo'), { recursive: true });
  for (const file of ['Shop.java', 'Main.java']) {
    writeFileSync(join(repo, 'src/main/java/demo', file), readFileSync(join(shopDir, 'src/demo', file)));
  }
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.test', ...args], { cwd: repo })
      .toString()
      .trim();
  git('init', '--quiet', '--initial-branch', 'main');
  git('add', '.');
  git('commit', '--quiet', '-m', 'shop');
  return { repo, sha: git('rev-parse', 'HEAD') };
}

/**
 * The shop built in `dir`, its sources committed to a repository there, and an app `shop` on that
 * repository registered with these environments through `client`'s API: what each exec suite starts from.
 */
export async function registerShop(
  client: Pick<ReturnType<typeof useReportsApp>, 'ok' | 'teamId'>,
  dir: string,
  environments: string[],
) {
  const shop = buildShop(dir);
  const { repo, sha } = shopRepository(dir, dir);
  const app = await client.ok<{ ingestionToken: string }>('POST', '/api/apps', {
    teamId: client.teamId,
    name: 'shop',
    language: 'java',
    environments,
    repoUrl: repo,
  });
  return { shop, repo, sha, token: app.ingestionToken };
}

/** The class file contents kept, every app together: files under the data folder, or class_blobs rows (ADR 0006). */
export async function classBlobCount(db: Db, dataDir: string, storage: UploadStorage): Promise<number> {
  if (storage === 'database') {
    return Number((await db.execute<{ n: number }>(sql`select count(*)::int as n from class_blobs`)).rows[0]?.n);
  }
  const root = join(dataDir, 'class-files');
  if (!existsSync(root)) return 0;
  return readdirSync(root)
    .map((app) => join(root, app, 'blobs'))
    .filter((blobs) => existsSync(blobs))
    .reduce((n, blobs) => n + readdirSync(blobs).length, 0);
}
