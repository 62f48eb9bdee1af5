// Where a server's start goes: one start under V8's CPU profiler (node --cpu-prof), from spawn to the first
// tools/list answer, read back and summed by kind of work, so the report can show what our start does that
// the SDK floor's does not. The profiled process runs with more node flags than the timed starts, so its
// compile cache is a different file: a first profiled start writes it, and the PROFILED_STARTS after it,
// which load it, are read (each kind's median).
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { binNodeFlags } from './servers.mjs';
import { StdioServer } from './stdio.mjs';

const SAMPLE_US = 200;
export const PROFILED_STARTS = 3;

/** Frames of the launcher reading and compiling the bundle with its code cache. */
const LOADING = new Set(['Script', 'readFileSync', 'latin1Slice', 'compileFunction', 'createCachedData']);

/**
 * Profiles `spec` (a server's { command, args, env, cwd }) and resolves with { busyMs, kinds: { [kind]: ms },
 * modules: [[name, ms]] }: CPU time sampled until the first tools/list was answered (idle apart), by kind of
 * work, and the bundled modules whose evaluation and code the samples fell in (esbuild names a module's
 * wrapper after its path only when it keeps one, so this part is a lower bound). Medians of the profiled
 * starts, the modules averaged.
 */
export async function startProfile(spec) {
  const dir = mkdtempSync(join(tmpdir(), 'forge-start-profile-'));
  try {
    // Our bin and the packaged floor start as their own command (a launcher under the machine's node);
    // under another Node line the command is that node, with the flags and the script as arguments.
    const viaNode = /(^|\/)node$/.test(spec.command);
    const nodeBin = viaNode ? spec.command : process.execPath;
    const script = viaNode ? spec.args.at(-1) : spec.command;
    // A bin started as its own command runs node with the flags on its first line; the profiled start too.
    const flags = viaNode ? spec.args.slice(0, -1) : binNodeFlags(script);
    const runs = [];
    // One profile folder for every start: the launcher keys its compile cache on the node flags, so a folder
    // per start would give each start flags of its own and none would load the cache the first one wrote.
    const seen = new Set();
    for (let i = 0; i <= PROFILED_STARTS; i++) {
      const s = new StdioServer({
        ...spec,
        command: nodeBin,
        args: [
          ...flags,
          ...(flags.includes('--optimize-for-size') ? [] : ['--optimize-for-size']),
          '--cpu-prof',
          `--cpu-prof-dir=${dir}`,
          `--cpu-prof-interval=${SAMPLE_US}`,
          script,
        ],
      });
      const t0 = Date.now();
      await s.start();
      const answeredAfterMs = Date.now() - t0;
      await s.close();
      const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile') && !seen.has(f));
      if (file) seen.add(file);
      if (i === 0) continue;
      if (!file) throw new Error('a profiled start wrote no .cpuprofile');
      runs.push(summarize(JSON.parse(readFileSync(join(dir, file), 'utf8')), answeredAfterMs));
    }
    const med = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const kinds = {};
    for (const k of new Set(runs.flatMap((r) => Object.keys(r.kinds))))
      kinds[k] = med(runs.map((r) => r.kinds[k] ?? 0));
    const modules = new Map();
    for (const r of runs)
      for (const [m, ms] of r.modules) modules.set(m, (modules.get(m) ?? 0) + ms / runs.length);
    return {
      busyMs: med(runs.map((r) => r.busyMs)),
      kinds,
      modules: [...modules].sort((a, b) => b[1] - a[1]),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The module a bundled frame belongs to: esbuild names each module's wrapper after its path. */
function moduleOf(name) {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(name);
  if (pkg) return pkg[1];
  const room = /^dist\/([^/.]+)/.exec(name);
  return room ? `server: ${room[1]}` : undefined;
}

/** Sums the samples up to `untilMs` after the profile's start by kind of work and by module evaluated. */
function summarize(profile, untilMs) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const kinds = {};
  const modules = new Map();
  const add = (m, k, us) => m.set(k, (m.get(k) ?? 0) + us);
  let at = 0;
  let total = 0;
  const until = untilMs * 1000;
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i] ?? 0;
    if (at > until) break;
    const us = profile.timeDeltas[i + 1] ?? 0;
    const leaf = byId.get(profile.samples[i]);
    const name = leaf.callFrame.functionName;
    let kind;
    let module;
    let bundled = false;
    let builtin = false;
    for (let id = leaf.id; id !== undefined; id = parent.get(id)) {
      const { functionName: fn, url } = byId.get(id).callFrame;
      module ??= moduleOf(fn);
      if (url.endsWith('.bundle.cjs')) bundled = true;
      if (fn === 'compileForInternalLoader' || fn === 'requireBuiltin') builtin = true;
    }
    if (name === '(idle)') kind = 'idle (waiting: the instance, the pipe)';
    else if (name === '(garbage collector)') kind = 'garbage collection';
    else if (builtin) kind = 'loading Node built-in modules';
    else if (LOADING.has(name)) kind = 'reading and compiling the bundle (code cache)';
    else if (bundled) kind = 'running the bundle (modules, catalog, session, SDK handshake)';
    else kind = 'other (Node bootstrap, stdio and sockets)';
    kinds[kind] = (kinds[kind] ?? 0) + us / 1000;
    if (module && bundled) add(modules, module, us / 1000);
    if (name !== '(idle)') total += us / 1000;
  }
  return {
    busyMs: total,
    kinds,
    modules: [...modules].sort((a, b) => b[1] - a[1]),
  };
}
