// The bin's launcher (scripts/bundle.mjs writes it to dist/ with the two __FORGE_*__ names filled in).
// It compiles the bundled server with a V8 code cache, which is what Node 22's module.enableCompileCache()
// does and Node 20 lacks: the first start compiles as usual and, once the server has served its start (or at
// exit), leaves the compiled code in a per-user cache file; later starts load it instead of compiling.
// It uses Node's own switches: NODE_COMPILE_CACHE names the folder, NODE_DISABLE_COMPILE_CACHE turns it off.
// Whatever goes wrong with the cache (unreadable, stale, another Node, a read-only home) only costs the
// compile: V8 checks the cache it is given and refuses one that does not fit, and nothing is ever reported.
'use strict';
const { Script } = require('node:vm');
const fs = require('node:fs');
const path = require('node:path');
const os = require('node:os');
const { createHash } = require('node:crypto');
const { createRequire, wrap } = require('node:module');

const bundle = path.join(__dirname, '__FORGE_BUNDLE__');
/** The hooks the server calls once it serves, and once its start is over (src/compile-cache.ts). */
const SERVING = Symbol.for('forge-mcp-server.serving');
const STARTED = Symbol.for('forge-mcp-server.started');
const cacheFile = compileCacheFile();
let cachedData;
if (cacheFile) {
  try {
    cachedData = fs.readFileSync(cacheFile);
  } catch {
    /* no cache yet */
  }
}
// The bundle is ASCII (the build checks), so latin1 reads it without UTF-8 decoding.
const script = new Script(wrap(fs.readFileSync(bundle, 'latin1')), { filename: bundle, cachedData });
cachedData = undefined;
if (cacheFile && script.cachedDataRejected !== false) {
  // Written only by a process that got as far as serving (the server calls the first hook then), so that a
  // `--version` or a refused start does not leave a cache of the start-up code alone. Written once the start
  // is over (the second hook: stdio's first tools/list answered), so that the cache holds what a start runs
  // and not what the rest of that first session happened to call, which every later start would otherwise
  // deserialize and keep; at exit, for a process that never says so.
  let compiled = script;
  const save = () => {
    if (!compiled) return;
    saveCompileCache(compiled, cacheFile);
    compiled = undefined;
  };
  Object.defineProperty(globalThis, SERVING, {
    configurable: true,
    value: () => {
      delete globalThis[SERVING];
      process.once('exit', save);
      Object.defineProperty(globalThis, STARTED, {
        configurable: true,
        value: () => {
          delete globalThis[STARTED];
          setImmediate(save);
        },
      });
    },
  });
}
const module_ = { exports: {}, id: bundle, filename: bundle, loaded: false };
script.runInThisContext()(module_.exports, createRequire(bundle), module_, bundle, __dirname);

/** The cache file for this bundle, this Node and these flags; undefined when the cache is off. */
function compileCacheFile() {
  const env = process.env;
  if (env.NODE_DISABLE_COMPILE_CACHE) return undefined;
  const base = env.NODE_COMPILE_CACHE || userCacheFolder(env);
  if (!base) return undefined;
  // V8 checks its version and flags but not the source itself, so the bundle's own hash names the file.
  const key = createHash('sha256')
    .update([process.version, process.arch, process.execArgv.join(' ')].join('\0'))
    .digest('hex')
    .slice(0, 16);
  return path.join(base, `__FORGE_HASH__-${key}.v8cache`);
}

/** The platform's per-user cache folder for the server, or undefined when there is none. */
function userCacheFolder(env) {
  const home = os.homedir();
  const folder =
    process.platform === 'win32'
      ? env.LOCALAPPDATA
      : process.platform === 'darwin'
        ? home && path.join(home, 'Library', 'Caches')
        : env.XDG_CACHE_HOME || (home && path.join(home, '.cache'));
  return folder ? path.join(folder, 'forge-mcp-server') : undefined;
}

function saveCompileCache(compiled, file) {
  // A file of its own first, then a rename: a start running alongside reads the old cache or the new one.
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    fs.writeFileSync(tmp, compiled.createCachedData(), { mode: 0o600 });
    fs.renameSync(tmp, file);
    pruneCompileCache(path.dirname(file));
  } catch {
    // A cache that cannot be written only costs the next start its compile.
    try {
      fs.rmSync(tmp, { force: true });
    } catch {
      /* nothing was written */
    }
  }
}

/** Keeps the newest few caches (other releases, Node versions or flags) and removes the rest, so upgrades do not pile up. */
function pruneCompileCache(folder) {
  const KEEP = 4;
  const caches = fs
    .readdirSync(folder)
    .filter((name) => name.endsWith('.v8cache'))
    .map((name) => {
      const file = path.join(folder, name);
      return { file, mtime: fs.statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? 0 };
    })
    .sort((a, b) => b.mtime - a.mtime);
  for (const { file } of caches.slice(KEEP)) fs.rmSync(file, { force: true });
}
