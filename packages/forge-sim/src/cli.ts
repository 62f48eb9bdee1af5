#!/usr/bin/env node
/** `forge-sim [--port N] [--host H] [--tls] [--latency MS] [--license ...] [--json]`: serve the simulated instance. */
import { parseArgs } from 'node:util';
import { startForgeSim } from './index.js';
import type { LicensePlan } from './types.js';

const USAGE =
  'Usage: forge-sim [--port N] [--host H] [--tls] [--latency MS] [--license free|premium|ultimate|none] [--json]';

/** One line saying what was wrong, then exit 2: a mistyped flag never ends in a stack trace. */
function usageError(problem: string): never {
  process.stderr.write(`forge-sim: ${problem}; run forge-sim --help for usage\n`);
  process.exit(2);
}

let parsed;
try {
  parsed = parseArgs({
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
} catch (err) {
  usageError((err as Error).message);
}
const { values } = parsed;

if (values.help) {
  console.log(USAGE);
  process.exit(0);
}

const wholeNumber = (name: string, raw: string, max: number): number => {
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n > max)
    usageError(`--${name} ${JSON.stringify(raw)} is not a whole number from 0 to ${max}`);
  return n;
};
const port = wholeNumber('port', values.port, 65535);
const latencyMs = wholeNumber('latency', values.latency, 600_000);
if (!['free', 'premium', 'ultimate', 'none'].includes(values.license))
  usageError(`--license ${JSON.stringify(values.license)} is not one of free, premium, ultimate, none`);

const license = values.license === 'none' ? null : (values.license as LicensePlan);
const sim = await startForgeSim({
  port,
  host: values.host,
  tls: values.tls ? 'self-signed' : undefined,
  latencyMs,
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
