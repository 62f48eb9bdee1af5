// The benchmark's reference row "SDK floor + one undici request" (bench/lib/sdk-floor.mjs): before answering a
// mapped call with the floor's canned answer, it makes the upstream GET our server makes for that call, with the
// same headers, through undici (bundled from forge-mcp-server's copy, as our bin bundles it): a Pool for
// FORGE_URL's origin, dispatched to directly with a handler that gathers the body's chunks, then JSON.parse of
// the body. None of our server's code runs in it: what it adds to the floor is what the HTTP client costs.
// It runs bundled only (bench/lib/servers.mjs bundleFloor): run as it is, it would find bench/'s own older undici.
import { Pool } from 'undici';
import { serveFloor } from './sdk-floor.mjs';

/** The upstream request of each mapped call, as forge-sim records our server's (bench/lib/servers.mjs). */
const PATHS = {
  issues: '/api/v4/projects/1/issues?state=opened',
  mr: '/api/v4/projects/1/merge_requests/1',
  file: '/api/v4/projects/1/repository/files/README.md?ref=main',
};

const base = new URL(process.env.FORGE_URL);
const headers = Object.freeze({
  accept: 'application/json',
  'user-agent': 'forge-mcp-server',
  'private-token': process.env.FORGE_TOKEN,
});
// Our server's pool options for an instance (keep-alive, connections, answer size limit).
const pool = new Pool(base.origin, {
  keepAliveTimeout: 30_000,
  connections: 64,
  maxResponseSize: 512 * 1024 * 1024,
});

/** One GET: resolves with the parsed JSON body of a 2xx answer, rejects otherwise. */
function get(path) {
  return new Promise((resolve, reject) => {
    let status = 0;
    const chunks = [];
    pool.dispatch(
      { origin: base.origin, path, method: 'GET', headers },
      {
        onRequestStart() {},
        onResponseStart(_controller, statusCode) {
          status = statusCode;
        },
        onResponseData(_controller, chunk) {
          chunks.push(chunk);
        },
        onResponseEnd() {
          const body = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
          if (status < 200 || status > 299) reject(new Error(`GET ${path}: status ${status}`));
          else resolve(JSON.parse(body.toString('utf8')));
        },
        onResponseError(_controller, err) {
          reject(err);
        },
      },
    );
  });
}

serveFloor((call) => get(PATHS[call])).then(() => pool.close());
