#!/usr/bin/env node
import { runCli } from './run.ts';

// The CLI entry (bundled to dist/sextant.mjs): wires the process to runCli and sets the exit code.
const noColor = process.env.NO_COLOR !== undefined && process.env.NO_COLOR !== '';
process.exitCode = await runCli(process.argv.slice(2), {
  cwd: process.cwd(),
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  colour: process.stdout.isTTY === true && !noColor,
  terminal: process.stdout.isTTY === true,
});
