import { runCli } from '../../cli/src/run.ts';
