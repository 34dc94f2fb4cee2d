import { readFileSync } from 'node:fs';

// Where a CPU profile's time went (BENCH_CPU_PROFILE, processes.ts): self time per function and
// per package, heaviest first. Usage: npx tsx packages/server/bench/cpu-profile-summary.ts <file>

type ProfileNode = {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
};
type Profile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };

const isProfile = (value: unknown): value is Profile =>
  typeof value === 'object' &&
  value !== null &&
  'nodes' in value &&
  Array.isArray(value.nodes) &&
  'samples' in value &&
  Array.isArray(value.samples) &&
  'timeDeltas' in value &&
  Array.isArray(value.timeDeltas);

// node_modules/<package> (scoped too), our packages/<name>/src, node: internals, or V8's own.
const packageOf = (url: string): string => {
  const dependency = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (dependency?.[1]) return dependency[1];
  const ours = /packages\/([^/]+)\/src\/(?:features|infra)?\/?([^/]+)?/.exec(url);
  if (ours) return `flotilla ${ours[1] ?? ''} ${ours[2] ?? ''}`.trim();
  if (url.startsWith('node:')) return url;
  return url === '' ? '(V8: GC, idle, native)' : url;
};

const top = (totals: Map<string, number>, all: number, count: number): string[] =>
  [...totals.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, micros]) => `${((100 * micros) / all).toFixed(1).padStart(5)} %  ${name}`);

const file = process.argv[2];
if (!file) throw new Error('usage: cpu-profile-summary.ts <file.cpuprofile>');
const profile: unknown = JSON.parse(readFileSync(file, 'utf8'));
if (!isProfile(profile)) throw new Error(`${file} is not a V8 CPU profile`);
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const perFunction = new Map<string, number>();
const perPackage = new Map<string, number>();
let all = 0;
for (const [index, id] of profile.samples.entries()) {
  const micros = profile.timeDeltas[index] ?? 0;
  const frame = byId.get(id)?.callFrame;
  if (!frame || frame.functionName === '(idle)') continue;
  all += micros;
  const where = frame.url.replace(/^.*\/(node_modules|packages)\//, '$1/');
  const name = `${frame.functionName || '(anonymous)'}  ${where}:${frame.lineNumber + 1}`;
  perFunction.set(name, (perFunction.get(name) ?? 0) + micros);
  perPackage.set(packageOf(frame.url), (perPackage.get(packageOf(frame.url)) ?? 0) + micros);
}
console.log(`busy ${(all / 1e6).toFixed(2)} s (idle excluded)\n\nper package:`);
console.log(top(perPackage, all, 25).join('\n'));
console.log('\nper function (self time):');
console.log(top(perFunction, all, 40).join('\n'));
