/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance) against the HTTP mode over
 * forge-sim. The suite sends no credential, so a loopback proxy in front of the server adds the demo
 * token to every request (and keeps the Host and Origin the suite sends, for its DNS-rebinding checks).
 * The suite needs Node >= 22: FORGE_CONFORMANCE_NODE names that binary (.ci/conformance.sh sets it in
 * CI, where the test refuses to skip).
 */
import { execFile } from 'node:child_process';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpServer, sim, type ForgeSim, type HttpServerProcess } from './harness.js';

const NODE = process.env.FORGE_CONFORMANCE_NODE;
const SUITE = join(
  dirname(fileURLToPath(import.meta.url)),
  '../../../node_modules/@modelcontextprotocol/conformance/dist/index.js',
);

/** The scenarios that apply to any server (the others need the suite's own fixture tools and prompts). */
const SCENARIOS = [
  'server-initialize',
  'ping',
  'tools-list',
  'logging-set-level',
  'resources-list',
  'prompts-list',
  'completion-complete',
  'dns-rebinding-protection',
];

/** A loopback proxy adding the credential the suite does not send. */
function credentialProxy(target: URL, token: string): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const headers = { ...req.headers };
    headers.authorization ??= `Bearer ${token}`;
    const out = request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ url: `http://127.0.0.1:${port}${target.pathname}`, server });
    }),
  );
}

function runSuite(url: string, scenario: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      NODE!,
      [SUITE, 'server', '--url', url, '--scenario', scenario],
      { timeout: 120_000, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp' } },
      (err, stdout, stderr) =>
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, output: stdout + stderr }),
    );
  });
}

describe.skipIf(!NODE && !process.env.CI)('official MCP conformance suite', () => {
  let s: ForgeSim;
  let server: HttpServerProcess;
  let proxy: { url: string; server: Server };
  beforeAll(async () => {
    if (!NODE) throw new Error('FORGE_CONFORMANCE_NODE is not set: source .ci/conformance.sh first');
    s = await sim();
    server = await httpServer(s);
    proxy = await credentialProxy(new URL(server.url), s.tokens.api);
  });
  afterAll(async () => {
    proxy?.server.close();
    await server?.stop();
    await s?.close();
  });

  for (const scenario of SCENARIOS)
    it(`passes ${scenario}`, async () => {
      const { code, output } = await runSuite(proxy.url, scenario);
      expect(output, output).not.toContain('FAILURE');
      // The suite ran its checks and every one passed (a scenario that ran nothing would show 0/0).
      expect(output, output).toMatch(/Passed: ([1-9]\d*)\/\1, 0 failed/);
      expect(code, output).toBe(0);
    });
});
