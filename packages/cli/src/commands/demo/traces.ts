import { createHash } from 'node:crypto';
import { PATHS, pathTo } from '@sextant/api';
import type { DemoApi } from './client.ts';
import type { DemoApp } from './manifest.ts';
import { DEMO_TRACE_PLAN, type DemoInterface } from './trace-plan.ts';

const VERSIONS = ['1.0', '1.1'] as const;
type Version = (typeof VERSIONS)[number];
const CALLS_PER_INTERFACE = 30;
const HOUR_MS = 3_600_000;
const MS = 1_000_000n;

type Attribute = { key: string; value: { stringValue: string } | { intValue: string } };
const str = (key: string, value: string): Attribute => ({ key, value: { stringValue: value } });
const int = (key: string, value: number): Attribute => ({ key, value: { intValue: String(value) } });
/** Ids from a hash of the call, so a second `sextant demo` run re-sends the same spans (stored once). */
const idOf = (seed: string, hexDigits: number) => createHash('sha256').update(seed).digest('hex').slice(0, hexDigits);
/** A repeatable spread in [0, 1) per call. */
const spread = (seed: string) => Number.parseInt(idOf(`${seed}/r`, 8), 16) / 0x1_0000_0000;

/** One call: the server span of the interface, its code method's span and a database span. */
function callSpans(app: string, api: DemoInterface, version: Version, n: number, startMs: number) {
  const seed = `${app}/${api.method} ${api.route}/${version}/${n}`;
  const traceId = idOf(seed, 32);
  const [rootId, codeId, dbId] = ['root', 'code', 'db'].map((s) => idOf(`${seed}/${s}`, 16)) as [
    string,
    string,
    string,
  ];
  const ms = api.ms[version] * (0.7 + spread(seed) * 0.6);
  const failed = spread(`${seed}/e`) < api.errors[version];
  const start = BigInt(Math.round(startMs)) * MS;
  const at = (offsetMs: number) => (start + BigInt(Math.round(offsetMs * 1000)) * 1000n).toString();
  const status = failed ? { code: 2, message: api.exception?.message ?? 'failed' } : { code: 1 };
  const caseAttr = api.testCase && n % 3 === 0 ? [str('test.case.id', api.testCase)] : [];
  const exception =
    failed && api.exception
      ? [
          {
            name: 'exception',
            timeUnixNano: at(ms * 0.8),
            attributes: [
              str('exception.type', api.exception.type),
              str('exception.message', api.exception.message),
              str(
                'exception.stacktrace',
                `${api.exception.type}: ${api.exception.message}\n    at ${api.code.namespace}.${api.code.function} (${api.code.file}:${api.code.line + 3})`,
              ),
            ],
          },
        ]
      : [];
  return [
    {
      traceId,
      spanId: rootId,
      name: `${api.method} ${api.route}`,
      kind: 2,
      startTimeUnixNano: at(0),
      endTimeUnixNano: at(ms),
      attributes: [
        str('http.request.method', api.method),
        str('http.route', api.route),
        int('http.response.status_code', failed ? 500 : 200),
        ...caseAttr,
      ],
      status,
    },
    {
      traceId,
      spanId: codeId,
      parentSpanId: rootId,
      name: `${api.code.namespace}.${api.code.function}`,
      kind: 1,
      startTimeUnixNano: at(ms * 0.05),
      endTimeUnixNano: at(ms * 0.9),
      attributes: [
        str('code.function.name', api.code.function),
        str('code.namespace', api.code.namespace),
        str('code.file.path', api.code.file),
        int('code.line.number', api.code.line),
      ],
      status,
      events: exception,
    },
    {
      traceId,
      spanId: dbId,
      parentSpanId: codeId,
      name: 'SELECT demo',
      kind: 3,
      startTimeUnixNano: at(ms * 0.1),
      endTimeUnixNano: at(ms * 0.5),
      attributes: [str('db.system', 'postgresql'), str('db.operation.name', 'SELECT')],
    },
  ];
}

/** The export of one app's version: 1.0's calls 20 to 12 hours ago, 1.1's in the last 10 hours. */
export function demoTraceExport(dir: DemoApp['dir'], version: Version, nowMs: number) {
  const plan = DEMO_TRACE_PLAN[dir];
  const windowStart = nowMs - (version === '1.0' ? 20 : 10) * HOUR_MS;
  const span = (version === '1.0' ? 8 : 9.5) * HOUR_MS;
  const spans = plan.interfaces.flatMap((api, i) =>
    Array.from({ length: CALLS_PER_INTERFACE }, (_, n) =>
      callSpans(
        dir,
        api,
        version,
        n,
        windowStart + ((n * plan.interfaces.length + i) / (CALLS_PER_INTERFACE * 4)) * span,
      ),
    ).flat(),
  );
  return {
    resourceSpans: [
      {
        resource: { attributes: [str('service.name', plan.service), str('service.version', version)] },
        scopeSpans: [{ scope: { name: 'sextant-demo' }, spans }],
      },
    ],
  };
}

/**
 * Sends each demo app's traces over OTLP/HTTP JSON with the app's ingestion token (issued anew
 * here: the server shows a token once), so trace search, interface analytics and regression runs
 * have real data.
 */
export async function sendDemoTraces(
  api: DemoApi,
  apps: Map<DemoApp['dir'], { id: string }>,
  log: (line: string) => void,
  // On the hour, so a second run within the hour sends the very same spans (kept once).
  nowMs = Math.floor(Date.now() / HOUR_MS) * HOUR_MS,
): Promise<number> {
  let sent = 0;
  for (const [dir, app] of apps) {
    const { ingestionToken } = await api.call<{ ingestionToken: string }>(
      'POST',
      pathTo(PATHS.appRotateToken, { id: app.id }),
    );
    for (const version of VERSIONS) {
      const body = demoTraceExport(dir, version, nowMs);
      await api.sendTraces(ingestionToken, body);
      sent += body.resourceSpans[0]?.scopeSpans[0]?.spans.length ?? 0;
    }
  }
  log(`sent ${sent} demo spans`);
  return sent;
}
