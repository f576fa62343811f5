import { FORMATS } from '@sextant/coverage';
import { COVERAGE_USAGE } from './commands/coverage.ts';
import { AGENT_USAGE, DEMO_HELP, UPLOAD_USAGE } from './commands/usages.ts';

/** `sextant COMMAND --help`: what the command does and every option it takes (issue 7). */
export const COMMAND_HELP: Record<string, { summary: string; help: string }> = {
  coverage: {
    summary: 'coverage figures of reports, with diff coverage and changed methods between two revisions',
    help: `${COVERAGE_USAGE}

Reads coverage reports (format detected from the content, gzip accepted; - reads standard input),
maps their paths onto the repository and merges them, and prints the totals. A relative path is
looked up under the folder its report file sits in and that folder's parents, then under the
--base-dir folder, then by the longest unique suffix (of several files, the one in the report's
nearest folder: a module's classes stay in its module); a path that names several files is listed
with them, never mapped to one. With --base and --head it
also prints the line diff coverage (diff-cover's definition) and the changed methods with their
figures and authors.
No server and no database are needed.

  --repo DIR             the git repository the reports describe (default: the current directory)
  --base-dir FOLDER      the repository folder the reports were made in, from the top
                         (packages/web; . for the top); by default the working directory's
  --base REV, --head REV compare two revisions (both or neither)
  --merge-base           compare head with where it left base (git merge-base), as diff-cover and
                         pull requests do: base's own later changes are left out
  --format F             force a format: auto (default), ${FORMATS.join(', ')}
  --json                 print JSON instead of a table (the stable shape other tools read)
  --fail-under-diff PCT  exit 2 when line diff coverage is below PCT percent (a CI gate); exit 1
                         when no changed line was measured and files of the report could not be
                         placed (the gate never passes on nothing; --json's gate.reason says why)
  --lines-only           only the changed lines' figures (diff-cover's): no method is parsed and
                         no one blamed, so it is quick on a large diff; with --json, diff.totals
                         and diff.methods are null
  --no-cache             find the changed methods again instead of reading those kept from earlier
                         runs (kept in SEXTANT_CACHE_DIR, default ~/.cache/sextant, keyed by git
                         object ids and the extractor's version)
  --verbose              say on stderr how long the run took, when each step finished (git diff,
                         report read, changed methods, authors, figures: they overlap) and how
                         the changed methods were found

Exit codes: 0 fine, 1 error (one line naming the file and position, or the files that could not
be placed), 2 below --fail-under-diff.
`,
  },
  upload: {
    summary: 'send coverage files to a Sextant server (from CI)',
    help: `${UPLOAD_USAGE}

Streams each file to the server, gzipped on the way unless it already is, and prints what the
server made of it (format, files, paths it could not map).

  --server URL       the Sextant server, e.g. https://sextant.example.com
  --token T          the app's ingestion token, or a user's access token with upload rights
  --app NAME         the app's name (or id)
  --commit SHA       the commit the tests ran on (a sha or a ref)
  --env ENV          the environment, e.g. ci, dev, test
  --test-type 1|2    1 unit tests (developers), 2 functional tests (QA)
  --case KEY         the test case these results belong to
  --agent-id ID      the agent that collected them
  --format F         force a format: auto (default), ${FORMATS.join(', ')}, jacoco-exec
  --base-dir FOLDER  the repository folder the report was made in, from the top (packages/web;
                     . for the top); by default the folder each report file sits in (the working
                     directory's for a file outside the repository): the server looks a monorepo
                     package's relative paths up there and in its parents first
  --classes DIR|JAR  for JaCoCo .exec files: the class files the app ran, sent first (only
                     those the server lacks), so the server's report reads the exec data with them

Exit codes: 0 every file accepted, 1 otherwise (the server's reason on stderr).
`,
  },
  agent: {
    summary: 'run beside an app under test: heart-beats and uploads of changed coverage files',
    help: `${AGENT_USAGE}

Every interval: sends a heart-beat (HEART_BEAT_DONE, or HEART_BEAT_ERROR with the reason of the
last failed upload) and uploads the watched files that changed since they were last sent. With
--jacoco it also dumps a JaCoCo agent started with output=tcpserver (as jacococli dump does, without
resetting it) and, when the coverage changed, uploads the dump as exec data; the class files of
--classes are sent once per commit (only those the server lacks), so the server merges the exec data
of all agents probe by probe and runs JaCoCo's own report over it. With --jacoco-convert local the
dump is turned into JaCoCo XML here instead. --watch, --jacoco or both. Stops cleanly on SIGINT or
SIGTERM.

  --server URL       the Sextant server
  --token T          the app's ingestion token, or a user's access token with upload rights
  --app NAME         the app's name (or id)
  --env ENV          the test environment the app runs in
  --watch GLOB       coverage files to send (*, ** and ? patterns; may be given several times)
  --jacoco HOST:PORT a JaCoCo agent in tcpserver mode (port default 6300)
  --classes DIR|JAR  the class files the app runs (JaCoCo's report needs the very same bytes)
  --jacoco-convert server|local
                     server (default): upload exec data and class files; local: run JaCoCo's
                     report here and upload its XML
  --jacoco-lib DIR   with --jacoco-convert local, where JaCoCo's Ant task is: jacocoant.jar, or
                     Debian's libjacoco-java jars (default /usr/share/java; needs ant and java)
  --interval D       time between rounds: 500ms, 30s, 5m, 1h (default 30s)
  --agent-id ID      this agent's name (default: host name and environment)
  --commit SHA       the commit deployed (default: git rev-parse HEAD here)
  --test-type 1|2    default 2 (functional tests)
  --base-dir FOLDER  the repository folder the reports were made in (default: this one's, in a
                     git checkout), as for sextant upload
  --once             one round, then exit (for scripts and tests)
`,
  },
  demo: {
    summary: 'load (or --remove) the demo workspace into a running server',
    help: DEMO_HELP,
  },
};

export function overview(): string {
  const width = Math.max(...Object.keys(COMMAND_HELP).map((c) => c.length));
  const lines = Object.entries(COMMAND_HELP).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`);
  const usages = Object.values(COMMAND_HELP).map((c) => `  ${c.help.split('\n')[0]}`);
  return (
    'usage: sextant COMMAND [options]   (sextant COMMAND --help for its options)\n\n' +
    `commands:\n${lines.join('\n')}\n\n${usages.join('\n')}\n`
  );
}
