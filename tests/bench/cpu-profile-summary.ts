// Reads a V8 CPU profile (node --cpu-prof; a bench server writes one into BENCH_CPU_PROF_DIR)
// and prints where the time went: self time by function and by package, and the total time
// under the functions whose name matches PROFILE_FOCUS (a regular expression).
//   npx tsx tests/bench/cpu-profile-summary.ts <file.cpuprofile> [top]
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const [file, topText] = process.argv.slice(2);
if (!file) throw new Error('usage: cpu-profile-summary.ts <file.cpuprofile> [top]');
const top = Number(topText ?? 40);
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const node of profile.nodes)
  for (const child of node.children ?? []) parent.set(child, node.id);
const self = new Map<number, number>();
let total = 0;
profile.samples.forEach((id, i) => {
  const dt = profile.timeDeltas[i] ?? 0;
  self.set(id, (self.get(id) ?? 0) + dt);
  total += dt;
});

function label(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  const short = url
    .replace(/^.*node_modules\/\.pnpm\/[^/]+\/node_modules\//, '')
    .replace(/^file:\/\/.*\/(api|db|sync-protocol)\//, '$1/');
  return `${functionName || '(anonymous)'} ${short}:${String(lineNumber + 1)}`;
}

function packageOf(node: ProfileNode): string {
  const url = node.callFrame.url;
  const match = /node_modules\/\.pnpm\/[^/]+\/node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (match?.[1]) return match[1];
  if (url.startsWith('node:')) return 'node core';
  if (url.includes('/api/dist/')) return 'api (bundle)';
  if (url === '') return node.callFrame.functionName || '(native)';
  return url;
}

const pct = (us: number) => `${((100 * us) / total).toFixed(1)} %`;
const fns = new Map<string, number>();
const packages = new Map<string, number>();
for (const [id, us] of self) {
  const node = byId.get(id);
  if (!node) continue;
  fns.set(label(node), (fns.get(label(node)) ?? 0) + us);
  packages.set(packageOf(node), (packages.get(packageOf(node)) ?? 0) + us);
}
const sorted = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]);
console.log(`total ${(total / 1000).toFixed(0)} ms sampled`);
console.log('\nself time by package:');
for (const [name, us] of sorted(packages).slice(0, 25))
  console.log(`  ${pct(us).padStart(7)}  ${name}`);
console.log('\nself time by function:');
for (const [name, us] of sorted(fns).slice(0, top))
  console.log(`  ${pct(us).padStart(7)}  ${name}`);

const focus = process.env.PROFILE_FOCUS;
if (focus) {
  // Total (inclusive) time of samples with a matching function on their stack.
  const re = new RegExp(focus);
  const inclusive = new Map<string, number>();
  for (const [id, us] of self) {
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const node = byId.get(cur);
      if (!node) break;
      const name = label(node);
      if (re.test(name) && !seen.has(name)) {
        seen.add(name);
        inclusive.set(name, (inclusive.get(name) ?? 0) + us);
      }
    }
  }
  console.log(`\ntotal time under functions matching /${focus}/:`);
  for (const [name, us] of sorted(inclusive).slice(0, top))
    console.log(`  ${pct(us).padStart(7)}  ${name}`);
}
