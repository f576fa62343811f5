#!/usr/bin/env node
import { setFlagsFromString } from 'node:v8';
import { runCli } from './run.ts';

// The CLI entry (bundled to dist/sextant.mjs): wires the process to runCli and sets the exit code.
// A run lives a second or so, and V8's optimising compiler spends about as much CPU building our
// hot functions as they spend running: without inlining it builds them for less. Set before any
// of them is hot; the worker threads share it. (bench/cold-cpu.ts; README "Cold runs".)
setFlagsFromString('--no-turbo-inlining');
const noColor = process.env.NO_COLOR !== undefined && process.env.NO_COLOR !== '';
// A reader that stops early (`sextant coverage … | head`) closes the pipe: the rest of the output
// is dropped, and the command still finishes with its own exit code (a CI gate keeps its verdict).
let stdoutClosed = false;
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  stdoutClosed = true;
});
process.exitCode = await runCli(process.argv.slice(2), {
  cwd: process.cwd(),
  stdout: (text) => {
    if (!stdoutClosed) process.stdout.write(text);
  },
  stderr: (text) => process.stderr.write(text),
  colour: process.stdout.isTTY === true && !noColor,
  terminal: process.stdout.isTTY === true,
});
