// How the server is bundled and launched (esbuild options without the entry and the output, and the
// launcher), shared by scripts/bundle.mjs and by the benchmark, which packages its SDK floor server the same way.
import { createHash } from 'node:crypto';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** @returns {import('esbuild').BuildOptions} */
export function bundleOptions() {
  return {
    bundle: true,
    platform: 'node',
    // CommonJS, so that the launcher (scripts/launcher.cjs) can compile it as a vm.Script with a code cache;
    // nothing in it uses import.meta or a top-level await.
    format: 'cjs',
    target: 'node20',
    // The bare 'undici' import resolves to the lean entry (what the server uses of it); deep imports of
    // undici's own files, which that entry makes, resolve as usual.
    plugins: [
      {
        name: 'undici-lean',
        setup(b) {
          b.onResolve({ filter: /^undici$/ }, () => ({ path: join(root, 'scripts/undici-lean.cjs') }));
        },
      },
      {
        // undici's HTTP/2 client (and node:http2 with it) loads when a connection first needs it.
        name: 'undici-h2-lazy',
        setup(b) {
          b.onResolve({ filter: /^\.\/client-h2\.js$/ }, (args) =>
            /undici[\\/]lib[\\/]dispatcher[\\/]client\.js$/.test(args.importer)
              ? { path: join(root, 'scripts/undici-h2-lazy.cjs') }
              : undefined,
          );
        },
      },
      {
        // pino's transports (a worker thread through thread-stream, and node:worker_threads with it) load when a
        // transport is first asked for, not with pino: the server logs to stderr through sonic-boom and asks for
        // none. The two requires become calls made on first use; a pino whose text differs fails the build.
        name: 'pino-transport-lazy',
        setup(b) {
          b.onLoad({ filter: /[\\/]pino[\\/](pino|lib[\\/]tools)\.js$/ }, async (args) => ({
            contents: rewrite(args.path, await readFile(args.path, 'utf8'), {
              'pino.js': [
                [
                  "module.exports.transport = require('./lib/transport')",
                  "module.exports.transport = (...args) => require('./lib/transport')(...args)",
                ],
              ],
              'tools.js': [
                ["const { isMainThread } = require('worker_threads')", ''],
                [
                  'if (!opts.sync && isMainThread) {',
                  "if (!opts.sync && require('worker_threads').isMainThread) {",
                ],
                [
                  "const transport = require('./transport')",
                  "const transport = (...args) => require('./transport')(...args)",
                ],
              ],
            }),
            loader: 'js',
          }));
        },
      },
      {
        // undici reads http.maxHeaderSize and http.IncomingMessage through scripts/http-lazy.cjs, so a start
        // does not load node:http (a client, a server) for one number.
        name: 'undici-http-lazy',
        setup(b) {
          const lazy = JSON.stringify(join(root, 'scripts/http-lazy.cjs'));
          b.onLoad(
            { filter: /[\\/]undici[\\/]lib[\\/](dispatcher[\\/]client|core[\\/]util)\.js$/ },
            async (args) => ({
              contents: rewrite(args.path, await readFile(args.path, 'utf8'), {
                'client.js': [
                  ["const http = require('node:http')\n", ''],
                  [
                    `const getDefaultNodeMaxHeaderSize = http &&
  http.maxHeaderSize &&
  Number.isInteger(http.maxHeaderSize) &&
  http.maxHeaderSize > 0
  ? () => http.maxHeaderSize
  : () => { throw new InvalidArgumentError('http module not available or http.maxHeaderSize invalid') }`,
                    `const getDefaultNodeMaxHeaderSize = () => {
  const size = require(${lazy}).maxHeaderSize()
  if (Number.isInteger(size) && size > 0) return size
  throw new InvalidArgumentError('http module not available or http.maxHeaderSize invalid')
}`,
                  ],
                ],
                'util.js': [
                  ["const { IncomingMessage } = require('node:http')\n", ''],
                  [
                    'if (Object.getPrototypeOf(stream).constructor === IncomingMessage) {',
                    `if (require(${lazy}).isIncomingMessage(stream)) {`,
                  ],
                ],
              }),
              loader: 'js',
            }),
          );
        },
      },
      {
        // undici's and sonic-boom's invariant checks load node:assert when one fails (scripts/assert-lazy.cjs).
        name: 'assert-lazy',
        setup(b) {
          b.onResolve({ filter: /^(node:)?assert$/ }, (args) =>
            /[\\/]node_modules[\\/](undici|sonic-boom)[\\/]/.test(args.importer)
              ? { path: join(root, 'scripts/assert-lazy.cjs') }
              : undefined,
          );
        },
      },
      {
        // The argument validator's ajv loads on its first validation (scripts/ajv-lazy.cjs).
        name: 'ajv-lazy',
        setup(b) {
          const lazy = join(root, 'scripts/ajv-lazy.cjs');
          const fromSchema = (args) => /dist[\\/]executor[\\/]schema\.js$/.test(args.importer);
          b.onResolve({ filter: /^ajv\/dist\/2020\.js$/ }, (args) =>
            fromSchema(args) ? { path: lazy } : undefined,
          );
          b.onResolve({ filter: /^ajv-formats$/ }, (args) =>
            fromSchema(args) ? { path: lazy, namespace: 'ajv-formats-lazy' } : undefined,
          );
          b.onLoad({ filter: /.*/, namespace: 'ajv-formats-lazy' }, () => ({
            contents: `module.exports = require(${JSON.stringify(lazy)}).addFormats;`,
            resolveDir: root,
            loader: 'js',
          }));
        },
      },
      {
        // ajv-formats carries its own copy of ajv (the workspace root hoists another major); the server's
        // copy serves both, so one ajv is loaded, not two of the same version.
        name: 'one-ajv',
        setup(b) {
          b.onResolve({ filter: /^ajv(\/|$)/ }, async (args) => {
            if (args.pluginData === 'one-ajv') return undefined;
            return b.resolve(args.path, { kind: args.kind, resolveDir: root, pluginData: 'one-ajv' });
          });
        },
      },
    ],
    logLevel: 'warning',
    legalComments: 'none',
    // Whitespace and comments out, names kept: a third less to parse, and no non-ASCII comment that would
    // make V8 hold the whole source as a two-byte string (8 MiB of heap instead of 3).
    minifyWhitespace: true,
    minifySyntax: true,
  };
}

/**
 * A dependency file's text with each `[from, to]` of `edits[basename]` replaced; throws when a `from` is not
 * found exactly once (the dependency changed: the edit must be looked at again).
 */
function rewrite(file, text, edits) {
  for (const [from, to] of edits[basename(file)] ?? []) {
    if (text.split(from).length !== 2) throw new Error(`${file}: expected "${from}" exactly once`);
    text = text.replace(from, () => to);
  }
  return text;
}

// V8's memory-favouring heuristics: garbage is collected before the heap grows, so a held credential
// costs about 16 KiB of resident memory instead of about 65, and the stdio server starts about 12 MiB
// smaller. (A capped young generation, --max-semi-space-size=2, bought nothing more and tripled the
// scavenges at start-up: 20 instead of 7.)
// WebAssembly kept to its baseline compiler (Liftoff): undici parses HTTP/1.1 with llhttp compiled to wasm,
// and V8's tier-up of its parser function to TurboFan, on a background thread, cost about 25 ms of CPU at
// start-up and, about one start in three, left some 10 MiB of that thread's freed compiler memory resident
// (66 MiB after start, or 76); the baseline code parses the instance's answers at the same CPU per call.
// One V8 worker thread instead of four: each worker's compiler and GC memory, freed, stayed resident in
// that thread's own malloc arena (about 3 MiB each after a thousand calls); with one, the stdio server
// holds about 7 MiB less after 1,000 calls and 2 less after start, at the same CPU.
export const NODE_FLAGS = '--optimize-for-size --liftoff-only --v8-pool-size=1';
/**
 * The first line of the bin and of the launcher. The closing `--` ends node's own options: node looks for its
 * --env-file anywhere in the command line, even after the script, so without it the server's --env-file was
 * read by node first (a missing file stopped the start with node's message, exit 9).
 */
export const SHEBANG = `#!/usr/bin/env -S node ${NODE_FLAGS} --`;

/**
 * Writes the launcher for a built bundle: scripts/launcher.cjs with the bundle's file name and content hash
 * filled in, behind a shebang carrying NODE_FLAGS, executable. Refuses a bundle that is not ASCII (the
 * launcher reads it as latin1, and V8 would hold a non-ASCII source at two bytes a character).
 */
export function writeLauncher(bundleFile, launcherFile) {
  const source = readFileSync(bundleFile);
  const offending = source.findIndex((byte) => byte > 0x7f);
  if (offending !== -1) throw new Error(`${bundleFile}: byte ${offending} is not ASCII`);
  const hash = createHash('sha256').update(source).digest('hex').slice(0, 16);
  const template = readFileSync(join(root, 'scripts', 'launcher.cjs'), 'utf8');
  const text = template
    .replaceAll('__FORGE_BUNDLE__', basename(bundleFile))
    .replaceAll('__FORGE_HASH__', hash);
  writeFileSync(launcherFile, `${SHEBANG}\n${text}`);
  chmodSync(launcherFile, 0o755);
}
