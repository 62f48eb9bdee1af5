// forge-sim's round-robin balancer in a process of its own, for the replica benchmark: the load generator, the
// balancer, the replicas and the simulated instance then each have their own event loop, as in a deployment.
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

if (process.send && process.argv[2] === '--child') {
  const { startBalancer } = await import('forge-sim');
  const lb = await startBalancer(JSON.parse(process.argv[3]), { record: false });
  process.on('disconnect', () => void lb.close().finally(() => process.exit(0)));
  process.send({ type: 'ready', url: lb.url });
}

/** Starts a balancer over `backends` (base URLs) in its own process; resolves with { url, pid, close() }. */
export function balancerProcess(cwd, backends) {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(import.meta.url), ['--child', JSON.stringify(backends)], {
      cwd,
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    child.on('message', (m) => {
      if (m.type === 'ready')
        resolve({
          url: m.url,
          pid: child.pid,
          close: () =>
            new Promise((done) => {
              child.once('exit', () => done());
              child.disconnect();
            }),
        });
    });
    child.once('exit', (code) => reject(new Error(`balancer process exited (${code}) before it was ready`)));
  });
}
