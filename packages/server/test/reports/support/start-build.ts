/**
 * Starts one build (the COMPILING step alone) and waits for it: the process a test kills with
 * SIGKILL to play a crashed server. argv: data folder, repository, sandbox setting, build command.
 */
import { join } from 'node:path';
import { compile } from '../../../src/modules/reports/pipeline/compile.ts';

const [dataDir, repo, sandbox, buildCommand] = process.argv.slice(2);
if (!dataDir || !repo || !sandbox || !buildCommand) throw new Error('usage: start-build DATA REPO SANDBOX COMMAND');
await compile({
  mirror: join(repo, '.git'),
  commit: 'HEAD',
  buildCommand,
  build: { sandbox: sandbox as 'auto', user: 'nobody', envPass: [], secrets: [] },
  dataDir,
  gitTimeoutMs: 60_000,
  timeoutMs: 600_000,
  signal: new AbortController().signal,
});
