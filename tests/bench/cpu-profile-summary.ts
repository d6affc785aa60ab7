// Reads a V8 CPU profile (node --cpu-prof; a bench server writes one into BENCH_CPU_PROF_DIR)
// and prints where the time went: self time by function and by package, and the total time
// under the functions whose name matches PROFILE_FOCUS (a regular expression).
// PROFILE_FROM_S and PROFILE_TO_S keep only the samples between those seconds from the
// profile's start (one measured window of a bench); PROFILE_TIMELINE=1 first prints each
// second's busy (not idle) milliseconds, and those under PROFILE_FOCUS, to find the windows.
//   npx tsx tests/bench/cpu-profile-summary.ts <file.cpuprofile> [top]
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
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
const focus = process.env.PROFILE_FOCUS;
const focusRe = focus ? new RegExp(focus) : undefined;
const fromUs = Number(process.env.PROFILE_FROM_S ?? 0) * 1e6;
const toUs = Number(process.env.PROFILE_TO_S ?? Infinity) * 1e6;
/** True when a function matching PROFILE_FOCUS is on the sample's stack. */
function underFocus(id: number): boolean {
  if (!focusRe) return false;
  for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
    const node = byId.get(cur);
    if (!node) break;
    if (focusRe.test(label(node))) return true;
  }
  return false;
}
const self = new Map<number, number>();
const perSecond = new Map<number, { busy: number; focus: number }>();
let total = 0;
let at = 0;
profile.samples.forEach((id, i) => {
  const dt = profile.timeDeltas[i] ?? 0;
  at += dt;
  const second = Math.floor(at / 1e6);
  if (byId.get(id)?.callFrame.functionName !== '(idle)') {
    const slot = perSecond.get(second) ?? { busy: 0, focus: 0 };
    slot.busy += dt;
    if (underFocus(id)) slot.focus += dt;
    perSecond.set(second, slot);
  }
  if (at < fromUs || at >= toUs) return;
  self.set(id, (self.get(id) ?? 0) + dt);
  total += dt;
});
if (process.env.PROFILE_TIMELINE === '1') {
  console.log('busy ms per second (second: busy/under PROFILE_FOCUS):');
  const line = [...perSecond]
    .sort((a, b) => a[0] - b[0])
    .map(([s, v]) => `${String(s)}:${(v.busy / 1000).toFixed(0)}/${(v.focus / 1000).toFixed(0)}`);
  console.log(line.join(' '));
}

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

if (focus && focusRe) {
  // Total (inclusive) time of samples with a matching function on their stack.
  const inclusive = new Map<string, number>();
  for (const [id, us] of self) {
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const node = byId.get(cur);
      if (!node) break;
      const name = label(node);
      if (focusRe.test(name) && !seen.has(name)) {
        seen.add(name);
        inclusive.set(name, (inclusive.get(name) ?? 0) + us);
      }
    }
  }
  console.log(`\ntotal time under functions matching /${focus}/:`);
  for (const [name, us] of sorted(inclusive).slice(0, top))
    console.log(`  ${pct(us).padStart(7)}  ${name}`);
}
