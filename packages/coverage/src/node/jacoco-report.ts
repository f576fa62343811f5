import { execFile } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import { stat, writeFile } from 'node:fs/promises';
import { delimiter, join, resolve } from 'node:path';

/** Where Debian's libjacoco-java puts JaCoCo's jars (it ships the Ant task, not jacococli). */
export const DEBIAN_JACOCO_LIB = '/usr/share/java';

/** The Ant task's class path: JaCoCo's all-in-one jacocoant.jar, else Debian's separate jars. */
const ALL_IN_ONE = ['jacocoant.jar'];
const DEBIAN_JARS = [
  'org.jacoco.ant.jar',
  'org.jacoco.core.jar',
  'org.jacoco.report.jar',
  'org.jacoco.agent.jar',
  'asm.jar',
  'asm-commons.jar',
  'asm-tree.jar',
];

export class ExecReportError extends Error {
  override name = 'ExecReportError';
}

const xmlAttribute = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function antClassPath(lib: string): string[] {
  for (const jars of [ALL_IN_ONE, DEBIAN_JARS]) {
    const paths = jars.map((jar) => join(lib, jar));
    if (paths.every((path) => existsSync(path))) return paths;
  }
  throw new ExecReportError(
    `JaCoCo's Ant task is not in ${lib} (jacocoant.jar, or Debian's org.jacoco.*.jar and asm*.jar: apt-get install libjacoco-java ant)`,
  );
}

/** Whether `command` is an executable file in one of PATH's folders. */
function onPath(command: string): boolean {
  return (process.env.PATH ?? '').split(delimiter).some((folder) => {
    try {
      accessSync(join(folder, command), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/**
 * Why JaCoCo's report cannot run on this machine (no JVM, no Ant, no JaCoCo jars in `lib`), or null
 * when it can: the server then turns exec data into figures itself (issue 38), else it says why not.
 */
export function jacocoReportMissing(lib: string = DEBIAN_JACOCO_LIB): string | null {
  for (const command of ['java', 'ant']) {
    if (!onPath(command)) return `no ${command} on PATH (apt-get install default-jdk-headless ant libjacoco-java)`;
  }
  try {
    antClassPath(lib);
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

/** A build file running JaCoCo's report task; paths arrive as properties, never inside the XML. */
function buildFile(classPath: readonly string[]): string {
  const elements = classPath.map((path) => `      <pathelement location="${xmlAttribute(path)}"/>`).join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<project name="sextant-jacoco" default="report" xmlns:jacoco="antlib:org.jacoco.ant">
  <taskdef uri="antlib:org.jacoco.ant" resource="org/jacoco/ant/antlib.xml">
    <classpath>
${elements}
    </classpath>
  </taskdef>
  <target name="report">
    <jacoco:report>
      <executiondata><file file="\${exec.file}"/></executiondata>
      <structure name="\${report.name}">
        <classfiles><path location="\${classes}"/></classfiles>
      </structure>
      <xml destfile="\${xml.file}"/>
    </jacoco:report>
  </target>
</project>
`;
}

function lastLines(text: string, count: number): string {
  return text.trim().split('\n').slice(-count).join('\n');
}

/**
 * Turns exec data into JaCoCo's XML report with the app's class files (a folder or a jar) through
 * JaCoCo's own Ant task, so the figures are JaCoCo's. Writes into `workDir`; answers the XML's path.
 */
export async function execToXml(opts: {
  exec: Buffer;
  classes: string;
  name: string;
  workDir: string;
  jacocoLib?: string;
  timeoutMs?: number;
}): Promise<string> {
  const classes = resolve(opts.classes);
  const found = await stat(classes).catch(() => null);
  if (!found) throw new ExecReportError(`--classes ${opts.classes}: no such folder or jar`);
  const classPath = antClassPath(opts.jacocoLib ?? DEBIAN_JACOCO_LIB);
  const build = join(opts.workDir, 'jacoco-report.xml');
  const exec = join(opts.workDir, 'jacoco.exec');
  const xml = join(opts.workDir, 'jacoco.xml');
  await writeFile(build, buildFile(classPath));
  await writeFile(exec, opts.exec);
  const args = ['-q', '-noinput', '-f', build, `-Dexec.file=${exec}`, `-Dclasses=${classes}`];
  args.push(`-Dxml.file=${xml}`, `-Dreport.name=${opts.name}`);
  await new Promise<void>((done, fail) => {
    execFile('ant', args, { timeout: opts.timeoutMs ?? 300_000, maxBuffer: 16 << 20 }, (error, stdout, stderr) => {
      if (!error) return done();
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT')
        return fail(new ExecReportError('ant is not installed (apt-get install ant libjacoco-java)'));
      const output = lastLines(`${stdout}\n${stderr}`, 8);
      fail(new ExecReportError(`JaCoCo's report task failed${output ? `:\n${output}` : ` (${error.message})`}`));
    });
  });
  return xml;
}
