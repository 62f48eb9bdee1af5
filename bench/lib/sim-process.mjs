// forge-sim in a process of its own, for the HTTP benchmark: the load generator, our server and the simulated
// instance then each have their own event loop, as in a deployment. Run as a child with an IPC channel; it
// answers { type: 'count', path } with how many requests for that path it has recorded.
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

if (process.send && process.argv[2] === '--child') {
  const { startForgeSim } = await import('forge-sim');
  const sim = await startForgeSim();
  process.on('message', (m) => {
    if (m?.type === 'count')
      process.send({ type: 'count', id: m.id, n: sim.requests.filter((q) => q.path === m.path).length });
  });
  process.on('disconnect', () => void sim.close().finally(() => process.exit(0)));
  process.send({ type: 'ready', url: sim.url, tokens: sim.tokens });
}

/** Starts forge-sim in its own process; resolves with { url, tokens, pid, countPath(path), close() }. */
export function simProcess(cwd) {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(import.meta.url), ['--child'], {
      cwd,
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    const waiting = new Map();
    let seq = 0;
    child.on('message', (m) => {
      if (m.type === 'ready')
        resolve({
          url: m.url,
          tokens: m.tokens,
          pid: child.pid,
          countPath: (path) =>
            new Promise((done) => {
              const id = ++seq;
              waiting.set(id, done);
              child.send({ type: 'count', id, path });
            }),
          close: () =>
            new Promise((done) => {
              child.once('exit', () => done());
              child.disconnect();
            }),
        });
      else if (m.type === 'count') {
        waiting.get(m.id)?.(m.n);
        waiting.delete(m.id);
      }
    });
    child.once('exit', (code) => reject(new Error(`forge-sim process exited (${code}) before it was ready`)));
  });
}
