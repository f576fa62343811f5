import { CoverageError } from '@sextant/coverage';
import { GitError } from '@sextant/coverage/node';
import { COVERAGE_USAGE, coverageCommand } from './commands/coverage.ts';
import { ApiCallError } from './commands/demo/client.ts';
import { AGENT_USAGE, DEMO_USAGE, UPLOAD_USAGE } from './commands/usages.ts';
import { COMMAND_HELP, overview } from './help.ts';
import { ServerError, UploadFailed } from './server-errors.ts';
import { type CommandIo, UsageError } from './usage.ts';

const EXIT_ERROR = 1;
const COMMANDS: Record<string, { usage: string; run: (argv: readonly string[], io: CommandIo) => Promise<number> }> = {
  coverage: { usage: COVERAGE_USAGE, run: coverageCommand },
  // Loaded when run: they bring the API schemas (zod), which `coverage` never needs.
  upload: {
    usage: UPLOAD_USAGE,
    run: async (argv, io) => (await import('./commands/upload.ts')).uploadCommand(argv, io),
  },
  agent: { usage: AGENT_USAGE, run: async (argv, io) => (await import('./commands/agent.ts')).agentCommand(argv, io) },
  demo: { usage: DEMO_USAGE, run: async (argv, io) => (await import('./commands/demo.ts')).demoCommand(argv, io) },
};
const USAGE = `usage:\n${Object.values(COMMANDS)
  .map((c) => `  ${c.usage}\n`)
  .join('')}`;

/** One line naming what failed: CoverageError already reads `file:line:col: reason (code)`. */
function describe(error: unknown): string {
  if (
    error instanceof CoverageError ||
    error instanceof GitError ||
    error instanceof UsageError ||
    error instanceof ServerError ||
    error instanceof UploadFailed ||
    error instanceof ApiCallError
  ) {
    return error.message;
  }
  const code = (error as { code?: unknown }).code;
  // node:util parseArgs errors: unknown option, missing value.
  if (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS')) return (error as Error).message;
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

export async function runCli(argv: readonly string[], io: CommandIo): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    io.stdout(command === undefined ? USAGE : overview());
    return command === undefined ? EXIT_ERROR : 0;
  }
  try {
    const known = COMMANDS[command];
    if (!known) throw new UsageError(`unknown command "${command}"`);
    if (rest.includes('--help') || rest.includes('-h')) {
      io.stdout(`usage: ${COMMAND_HELP[command]?.help ?? `${known.usage}\n`}`);
      return 0;
    }
    return await known.run(rest, io);
  } catch (error) {
    const line = describe(error).replace(/\s*\n\s*/g, ' ');
    io.stderr(`sextant ${command}: ${line}\n`);
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS'))
      io.stderr(COMMANDS[command] ? `usage: ${COMMANDS[command].usage}\n` : USAGE);
    return EXIT_ERROR;
  }
}
