#!/usr/bin/env node
// Bundles the built server (dist/cli.js and everything it imports) into one ES module,
// dist/forge-mcp-server.mjs: one file to read and compile instead of a few hundred, which is what
// `npx forge-mcp-server` starts. Runs after `tsc -b`.
import { build } from 'esbuild';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outfile = join(root, 'dist/forge-mcp-server.mjs');
await build({
  entryPoints: [join(root, 'dist/cli.js')],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // forge-sim is only the demo's; the server never loads it.
  external: ['forge-sim'],
  // CommonJS dependencies inside an ES module still need a require.
  banner: {
    js: "import { createRequire as __forgeRequire } from 'node:module';\nconst require = __forgeRequire(import.meta.url);",
  },
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
});
// V8's memory-favouring heuristics: garbage is collected before the heap grows, so a held credential
// costs about 16 KiB of resident memory instead of about 65, and the stdio server starts about 12 MiB
// smaller. (A capped young generation, --max-semi-space-size=2, bought nothing more and tripled the
// scavenges at start-up: 20 instead of 7.)
const NODE_FLAGS = '--optimize-for-size';
const text = readFileSync(outfile, 'utf8').replace(/^#!.*\n/, '');
writeFileSync(outfile, `#!/usr/bin/env -S node ${NODE_FLAGS}\n${text}`);
chmodSync(outfile, 0o755);
