// Load generator, run as its own process so it does not share an event loop with forge-sim: autocannon with
// one connection per client, each connection carrying its own token. Input: one JSON argument
// { url, tokens, body, connections, durationSec }; output: one JSON line on stdout.
import autocannon from 'autocannon';

const cfg = JSON.parse(process.argv[2]);
let next = 0;
const result = await autocannon({
  url: cfg.url,
  method: 'POST',
  connections: cfg.connections,
  pipelining: 1,
  duration: cfg.durationSec,
  headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
  body: cfg.body,
  setupClient(client) {
    const token = cfg.tokens[next++ % cfg.tokens.length];
    client.setHeaders({
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${token}`,
    });
  },
});
process.stdout.write(
  JSON.stringify({
    connections: cfg.connections,
    durationSec: result.duration,
    requests: result.requests.total,
    rps: result.requests.average,
    throughput: result.throughput.average,
    latency: {
      p50: result.latency.p50,
      p99: result.latency.p99,
      max: result.latency.max,
      mean: result.latency.average,
    },
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes: result.statusCodeStats,
  }) + '\n',
);
