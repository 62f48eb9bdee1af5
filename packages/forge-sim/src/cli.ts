#!/usr/bin/env node
/** `forge-sim --port N [--host H] [--tls] [--latency MS] [--license free|premium|ultimate|none]`: serve the simulated instance. */
import { parseArgs } from 'node:util';
import { startForgeSim } from './index.js';
import type { LicensePlan } from './types.js';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '0' },
    host: { type: 'string', default: '127.0.0.1' },
    tls: { type: 'boolean', default: false },
    latency: { type: 'string', default: '0' },
    license: { type: 'string', default: 'ultimate' },
    json: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});

if (values.help) {
  console.log(
    'Usage: forge-sim [--port N] [--host H] [--tls] [--latency MS] [--license free|premium|ultimate|none] [--json]',
  );
  process.exit(0);
}

const license = values.license === 'none' ? null : (values.license as LicensePlan);
const sim = await startForgeSim({
  port: Number(values.port),
  host: values.host,
  tls: values.tls ? 'self-signed' : undefined,
  latencyMs: Number(values.latency),
  license,
});

if (values.json) {
  console.log(JSON.stringify({ url: sim.url, tokens: sim.tokens, ca: sim.ca }));
} else {
  console.log(`forge-sim listening on ${sim.url}`);
  for (const [kind, token] of Object.entries(sim.tokens)) console.log(`  ${kind.padEnd(12)} ${token}`);
  if (sim.ca) console.log(`\nCA certificate:\n${sim.ca}`);
}

const stop = () => {
  sim.close().finally(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
