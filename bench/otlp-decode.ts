// The server's JavaScript share of OTLP intake (issue 36), without HTTP or a database: the exports of
// bench/otlp-ingest.ts decoded (protobuf, JSON) and turned into span rows by the traces service, whose
// repository here stores nothing. CPU milliseconds per 1,000 spans (process.cpuUsage, best of
// ROUNDS), which depend far less on the machine's load than a rate does.
//
// Last run (2026-11-29, load average ~30 on 2 shared cores): protobuf 13.6 ms CPU per 1,000 spans;
// JSON 14.3 ms (39.9 before bodies without a bare 16-digit number went through JSON.parse rather
// than lossless-json).
// COPY=1 also builds the COPY text the PostgreSQL write sends (2026-11-29 14:48, load 18-19, best of 4):
// protobuf 23.0 ms before the decoded message was read without toObject (775ddcf), 22.9 after;
// JSON 23.2 -> 21.5 ms.
import { loadavg } from 'node:os';
import { DEFAULT_SETTINGS } from '@sextant/api';
import { decodeJsonExport } from '../packages/server/src/modules/traces/otlp-json.ts';
import { decodeProtobufExport } from '../packages/server/src/modules/traces/otlp-proto.ts';
import type { TracesRepository } from '../packages/server/src/modules/traces/repository.ts';
import { TracesService } from '../packages/server/src/modules/traces/service.ts';
import { copyBody } from '../packages/server/src/modules/traces/span-copy.ts';
import { otlpExports } from './otlp-exports.ts';

const EXPORTS = 300;
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const { protobuf, json } = otlpExports(EXPORTS, 100);

const nothingStored = { insertSpans: async (rows: unknown[]) => rows.length } as unknown as TracesRepository;
// COPY=1: the rows are also made into the COPY text the PostgreSQL write sends (and then dropped).
const copyTextOnly = {
  insertSpans: async (rows: Parameters<typeof copyBody>[0]) => copyBody(rows).length,
} as unknown as TracesRepository;
const withCopy = process.env.COPY === '1';
const service = new TracesService(withCopy ? copyTextOnly : nothingStored, async () => DEFAULT_SETTINGS, 1000);
const appId = '00000000-0000-4000-8000-000000000001';
for (const [label, bodies, decode] of [
  ['protobuf', protobuf, decodeProtobufExport],
  ['JSON', json, decodeJsonExport],
] as const) {
  let best = Number.POSITIVE_INFINITY;
  for (let round = 0; round < ROUNDS + 1; round++) {
    const before = process.cpuUsage();
    for (const body of bodies) await service.ingest(appId, decode(body));
    const used = process.cpuUsage(before);
    // The first round warms the JIT up and is not counted.
    if (round > 0) best = Math.min(best, (used.user + used.system) / 1000 / ((bodies.length * 100) / 1000));
  }
  console.log(
    `${label}: decode + normalise${withCopy ? ' + COPY text' : ''} ${best.toFixed(1)} ms CPU per 1,000 spans (best of ${ROUNDS}; load ${loadavg()[0]?.toFixed(1)})`,
  );
}
