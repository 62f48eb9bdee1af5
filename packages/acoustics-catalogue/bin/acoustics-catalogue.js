#!/usr/bin/env node
// The installed command. It is committed (not built) so that npm links it at install time, before the
// first build; it only loads the built command line.
import { existsSync } from 'node:fs';

const built = new URL('../dist/cli.js', import.meta.url);
if (!existsSync(built)) {
  process.stderr.write('acoustics-catalogue: not built yet; run `npm run build` in the repository, then retry\n');
  process.exit(1);
}
await import(built.href);
