// Preloaded into a benchmarked server (NODE_OPTIONS=--import …/memory-probe.mjs): on SIGUSR2 it
// writes where the process's resident memory is to the file named by MEMPROBE_OUT, so a bench
// can break the RSS down without changing the server:
// - wasm: the resident part of WebAssembly memories, i.e. PGlite's heap (wasmMemories below);
// - files: mapped files (the node binary, shared libraries, PGlite's .wasm code);
// - other: everything else anonymous (V8's JavaScript heap, malloc, thread stacks);
// plus process.memoryUsage()'s V8 heap, external and ArrayBuffer figures.
import { readFileSync, writeFileSync } from 'node:fs';

const MiB = (bytes) => Math.round((bytes / 1024 / 1024) * 10) / 10;
const LARGE_RESERVATION = 4n * 1024n * 1024n * 1024n;

function mappings() {
  const list = [];
  let current;
  for (const line of readFileSync('/proc/self/smaps', 'utf8').split('\n')) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      current = {
        start: BigInt(`0x${head[1]}`),
        end: BigInt(`0x${head[2]}`),
        inaccessible: head[3] === '---p',
        name: head[4],
      };
      current.rssKiB = 0;
      list.push(current);
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss && current) current.rssKiB = Number(rss[1]);
  }
  return list;
}

/**
 * WebAssembly memories: V8 reserves each as a region of about 10 GiB, laid out as an
 * inaccessible guard, the memory's used (read-write) part, then its inaccessible rest up to
 * 8 GiB. So a used part is an anonymous mapping followed right away by an inaccessible one,
 * the two together at least 4 GiB.
 */
function wasmMemories(maps) {
  return maps.filter((m, i) => {
    const rest = maps[i + 1];
    return (
      m.name === '' &&
      !m.inaccessible &&
      rest !== undefined &&
      rest.name === '' &&
      rest.inaccessible &&
      rest.start === m.end &&
      rest.end - m.start >= LARGE_RESERVATION
    );
  });
}

process.on('SIGUSR2', () => {
  const maps = mappings();
  const sum = (list) => MiB(list.reduce((total, m) => total + m.rssKiB, 0) * 1024);
  const wasm = wasmMemories(maps);
  const files = maps.filter((m) => m.name.startsWith('/'));
  const other = maps.filter((m) => !wasm.includes(m) && !files.includes(m));
  const usage = process.memoryUsage();
  writeFileSync(
    process.env.MEMPROBE_OUT ?? '/dev/null',
    JSON.stringify({
      rssMiB: sum(maps),
      wasmMiB: sum(wasm),
      wasmMemories: wasm.map((m) => sum([m])),
      filesMiB: sum(files),
      otherMiB: sum(other),
      heapTotalMiB: MiB(usage.heapTotal),
      heapUsedMiB: MiB(usage.heapUsed),
      externalMiB: MiB(usage.external),
      arrayBuffersMiB: MiB(usage.arrayBuffers),
    }),
  );
});
