/**
 * Records how long one connection keeps PGlite to itself (issue 41: no request may wait behind a
 * report's write for more than 200 ms). A hold starts with the first protocol message run while no
 * connection holds the engine and ends after the message that leaves it free (no transaction, no
 * open extended query): a lone statement, or a whole transaction including the client's own time
 * between its statements. `busyMs` is the engine's part of it, `cpuMs` the engine thread's CPU time
 * in it (Linux schedstat, so a figure a loaded machine inflates less than wall time). Only benches
 * and tests turn it on.
 */
import { readFileSync } from 'node:fs';

const QUERY = 0x51;
const PARSE = 0x50;
const MIN_RECORDED_MS = 0;
const MAX_RECORDED = 100_000;
/** Distinct statement texts kept per hold. */
const MAX_TEXTS = 20;

/** Wraps the pglite-socket queue's engine; returns `take()`, which hands over the holds so far and forgets them. */
export function traceHolds(queue) {
  const engine = queue.db;
  let holds = [];
  let current = null;
  queue.db = new Proxy(engine, {
    get(target, prop) {
      if (prop !== 'execProtocolRawStream') {
        const value = Reflect.get(target, prop, target);
        return typeof value === 'function' ? value.bind(target) : value;
      }
      return async (message, options) => {
        const started = performance.now();
        const cpuBefore = threadCpuMs();
        current ??= { started, busyMs: 0, cpuMs: 0, statements: 0, sql: [] };
        const text = statementText(message);
        if (text !== null) {
          current.statements++;
          if (current.sql.length < MAX_TEXTS && !current.sql.includes(text)) current.sql.push(text);
        }
        try {
          return await target.execProtocolRawStream(message, options);
        } finally {
          const ended = performance.now();
          current.busyMs += ended - started;
          current.cpuMs += threadCpuMs() - cpuBefore;
          if (!target.isInTransaction()) {
            const ms = ended - current.started;
            if (ms >= MIN_RECORDED_MS && holds.length < MAX_RECORDED) {
              holds.push({
                ms,
                busyMs: current.busyMs,
                cpuMs: current.cpuMs,
                statements: current.statements,
                sql: current.sql,
              });
            }
            current = null;
          }
        }
      };
    },
  });
  return () => {
    const taken = holds;
    holds = [];
    return taken;
  };
}

/** CPU time of the calling thread (ns on CPU, schedstat's first field), in ms; 0 where /proc lacks it. */
function threadCpuMs() {
  try {
    return Number(readFileSync('/proc/thread-self/schedstat', 'latin1').split(' ')[0]) / 1e6;
  } catch {
    return 0;
  }
}

/** The SQL of a simple query or of an extended query's Parse, shortened; null for other messages. */
function statementText(message) {
  let at;
  if (message[0] === QUERY) at = 5;
  else if (message[0] === PARSE) at = message.indexOf(0, 5) + 1;
  else return null;
  const end = message.indexOf(0, at);
  const text = Buffer.from(message.subarray(at, end < 0 ? message.length : Math.min(end, at + 400))).toString();
  return text.replace(/\s+/g, ' ').trim().slice(0, 100);
}
