import { CoverageError } from '@sextant/coverage';
import { GitError } from '@sextant/coverage/node';
import { COVERAGE_USAGE, coverageCommand } from './commands/coverage.ts';
import { type CommandIo, UsageError } from './usage.ts';

const EXIT_ERROR = 1;
const USAGE = `usage: ${COVERAGE_USAGE}\n`;

/** One line naming what failed: CoverageError already reads `file:line:col: reason (code)`. */
function describe(error: unknown): string {
  if (error instanceof CoverageError || error instanceof GitError || error instanceof UsageError) return error.message;
  const code = (error as { code?: unknown }).code;
  // node:util parseArgs errors: unknown option, missing value.
  if (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS')) return (error as Error).message;
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

export async function runCli(argv: readonly string[], io: CommandIo): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    io.stdout(USAGE);
    return command === undefined ? EXIT_ERROR : 0;
  }
  try {
    if (command === 'coverage') return await coverageCommand(rest, io);
    throw new UsageError(`unknown command "${command}"`);
  } catch (error) {
    const line = describe(error).replace(/\s*\n\s*/g, ' ');
    io.stderr(`sextant ${command}: ${line}\n`);
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS'))
      io.stderr(USAGE);
    return EXIT_ERROR;
  }
}
