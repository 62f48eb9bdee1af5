#!/usr/bin/env -S node --optimize-for-size --liftoff-only --v8-pool-size=1 --
// The installed command. It is committed (not built) so that npm links it at install time, before the
// first build; it only loads the built launcher. Its node flags are the launcher's (scripts/bundle-options.mjs,
// NODE_FLAGS; the build checks they agree).
'use strict';
const path = require('node:path');
const built = path.join(__dirname, '..', 'dist', 'forge-mcp-server.cjs');
if (!require('node:fs').existsSync(built)) {
  process.stderr.write(
    'forge-mcp-server: not built yet; run `npm run build` in the repository, then retry\n',
  );
  process.exit(1);
}
require(built);
