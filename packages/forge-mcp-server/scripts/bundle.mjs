#!/usr/bin/env node
// Bundles the built server (dist/cli.js and everything it imports) into one ES module,
// dist/forge-mcp-server.mjs: one file to read and compile instead of a few hundred, which is what
// `npx forge-mcp-server` starts. Runs after `tsc -b`.
import { build } from 'esbuild';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleOptions } from './bundle-options.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outfile = join(root, 'dist/forge-mcp-server.mjs');
await build({
  entryPoints: [join(root, 'dist/cli.js')],
  outfile,
  ...bundleOptions(),
  // forge-sim is only the demo's; the server never loads it.
  external: ['forge-sim'],
});
// V8's memory-favouring heuristics: garbage is collected before the heap grows, so a held credential
// costs about 16 KiB of resident memory instead of about 65, and the stdio server starts about 12 MiB
// smaller. (A capped young generation, --max-semi-space-size=2, bought nothing more and tripled the
// scavenges at start-up: 20 instead of 7.)
const NODE_FLAGS = '--optimize-for-size';
const text = readFileSync(outfile, 'utf8').replace(/^#!.*\n/, '');
writeFileSync(outfile, `#!/usr/bin/env -S node ${NODE_FLAGS}\n${text}`);
chmodSync(outfile, 0o755);
