#!/usr/bin/env node
// The installed command. It is committed (not built) so that npm links it at install time, before the
// first build; it only loads the built launcher.
'use strict';
const path = require('node:path');
const built = path.join(__dirname, '..', 'dist', 'forge-mcp-server.cjs');
if (!require('node:fs').existsSync(built)) {
  process.stderr.write('forge-mcp-server: not built yet; run `npm run build` in the repository, then retry\n');
  process.exit(1);
}
require(built);
