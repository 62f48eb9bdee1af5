/**
 * A test file's forge-sim and our server in HTTP mode, started before the file's tests and stopped after them:
 * `started` receives both once they are up.
 */
import { afterAll, beforeAll } from 'vitest';
import { httpServer, sim, type ForgeSim, type HttpServerProcess } from './harness.js';

export function simAndHttpServer(
  started: (up: { s: ForgeSim; server: HttpServerProcess }) => void,
  args: string[] = [],
  env: Record<string, string> = {},
): void {
  let up: { s: ForgeSim; server?: HttpServerProcess } | undefined;
  beforeAll(async () => {
    up = { s: await sim() };
    up.server = await httpServer(up.s, args, env);
    started({ s: up.s, server: up.server });
  });
  afterAll(async () => {
    await up?.server?.stop();
    await up?.s.close();
  });
}
