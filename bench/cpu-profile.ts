// The top costs of a V8 CPU profile (`node --cpu-prof`, e.g. bench/otlp-ingest.ts with PROFILE=1):
// self and inclusive time per function, as shares of the busy time (idle left out), from the first
// sample inside a function named FROM (default `ingest`, the OTLP intake's) plus SKIP_MS of warm-up.
//   node --import tsx bench/cpu-profile.ts bench/out/otlp-ingest-profiles/CPU.<...>.cpuprofile [top]
import { readFileSync } from 'node:fs';

type Frame = { functionName: string; url: string; lineNumber: number };
type Node = { id: number; callFrame: Frame; children?: number[] };
type Profile = { nodes: Node[]; startTime: number; samples: number[]; timeDeltas: number[] };

const [file, top = '40'] = process.argv.slice(2);
if (!file) throw new Error('usage: bench/cpu-profile.ts <file.cpuprofile> [top]');
const FROM = process.env.FROM ?? 'ingest';
const SKIP_MS = Number(process.env.SKIP_MS ?? 1500);
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const label = ({ callFrame: f }: Node) =>
  `${f.functionName || '(anonymous)'} ${f.url.split('/').slice(-2).join('/')}:${f.lineNumber + 1}`;
const stackOf = (id: number): Node[] => {
  const stack: Node[] = [];
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) stack.push(byId.get(at) as Node);
  return stack;
};

let t = profile.startTime;
const times = profile.timeDeltas.map((d) => {
  t += d;
  return t;
});
const firstIndex = profile.samples.findIndex((id) => stackOf(id).some((n) => n.callFrame.functionName === FROM));
if (firstIndex < 0) throw new Error(`no sample inside ${FROM}`);
const from = (times[firstIndex] as number) + SKIP_MS * 1000;
const self = new Map<string, number>();
const inclusive = new Map<string, number>();
let busy = 0;
let idle = 0;
profile.samples.forEach((id, i) => {
  if ((times[i] as number) < from) return;
  const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000;
  const stack = stackOf(id);
  if (stack[0]?.callFrame.functionName === '(idle)') {
    idle += ms;
    return;
  }
  busy += ms;
  const own = label(stack[0] as Node);
  self.set(own, (self.get(own) ?? 0) + ms);
  for (const l of new Set(stack.map(label))) inclusive.set(l, (inclusive.get(l) ?? 0) + ms);
});
const show = (title: string, m: Map<string, number>) => {
  console.log(`--- ${title}`);
  for (const [what, ms] of [...m].sort((a, b) => b[1] - a[1]).slice(0, Number(top)))
    console.log(`${((100 * ms) / busy).toFixed(1).padStart(5)} %  ${what}`);
};
console.log(`busy ${busy.toFixed(0)} ms, idle ${idle.toFixed(0)} ms (from ${FROM}'s first sample + ${SKIP_MS} ms)`);
show('self', self);
show('inclusive', inclusive);
