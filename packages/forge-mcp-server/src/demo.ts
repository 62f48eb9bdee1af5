/**
 * `npm run demo`: the server over HTTP against a bundled, seeded forge-sim, printing the MCP URL and a
 * demo token. `npm run demo -- --oauth` serves it as an OAuth resource server in front of forge-sim's
 * authorization server and prints what to point a client at. Stops on Ctrl-C.
 */
import { homedir } from 'node:os';
import { startForgeSim } from 'forge-sim';
import { loadConfig } from './config/index.js';
import { ListenerRefused, runHttp } from './http/index.js';
import { createLogger } from './log.js';

async function main(): Promise<void> {
  const oauth = process.argv.slice(2).includes('--oauth');
  const sim = await startForgeSim({ port: Number(process.env.FORGE_SIM_PORT ?? 0) });
  const addr = process.env.FORGE_MCP_DEMO_ADDR ?? '127.0.0.1:8080';
  const publicUrl = `http://${addr}/mcp`;
  const { config } = loadConfig({
    argv: [
      '--http',
      `--http-addr=${addr}`,
      `--forge-url=${sim.url}`,
      '--tier=ultimate',
      ...(oauth ? ['--auth-mode=oauth', `--public-url=${publicUrl}`] : []),
    ],
    env: { FORGE_URL: sim.url, FORGE_MCP_LOG_LEVEL: process.env.FORGE_MCP_LOG_LEVEL ?? 'warn' },
    cwd: process.cwd(),
    home: homedir(),
    stdinIsPipe: false,
  });
  const log = createLogger(config.logLevel);
  let handle;
  try {
    handle = await runHttp(config, log);
  } catch (err) {
    if (!(err instanceof ListenerRefused)) throw err;
    await sim.close();
    // The demo's address comes from FORGE_MCP_DEMO_ADDR, not from a flag the user typed.
    const why = /\(([^)]+)\)/.exec(err.message)?.[1] ?? err.message;
    process.stderr.write(
      `demo: cannot listen on ${addr} (${why}); set FORGE_MCP_DEMO_ADDR to a free address, such as FORGE_MCP_DEMO_ADDR=127.0.0.1:9090\n`,
    );
    process.exit(2);
  }
  const lines = oauth
    ? [
        '',
        'forge-mcp-server demo (OAuth mode)',
        `  MCP URL:              ${handle.url}`,
        `  OAuth client ID:      ${sim.oauth.clientId}`,
        `  sign in as:           ${sim.oauth.username} / ${sim.oauth.password}`,
        `  authorization server: ${sim.url}  (the simulated instance)`,
        `  scope:                api`,
        '  redirect URIs registered for the client ID:',
        ...sim.oauth.redirectUris.map((u) => `    ${u}`),
        '',
        'Point an MCP client at the MCP URL with the client ID (see "Client configurations" in the README);',
        'it opens the sign-in and consent pages in your browser.',
        `A personal access token works too: Authorization: Bearer ${sim.tokens.api}`,
        '',
        'Press Ctrl-C to stop.',
        '',
      ]
    : [
        '',
        'forge-mcp-server demo',
        `  MCP URL:        ${handle.url}`,
        `  demo token:     ${sim.tokens.api}   (send as "Authorization: Bearer <token>")`,
        `  read-only token: ${sim.tokens.readApi}`,
        `  simulated instance: ${sim.url}`,
        '',
        'Try it:',
        `  curl -s ${handle.url} -H 'content-type: application/json' -H 'accept: application/json, text/event-stream' \\`,
        `    -H 'authorization: Bearer ${sim.tokens.api}' \\`,
        `    -d '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"curl","version":"1"}}}'`,
        '',
        'Press Ctrl-C to stop.',
        '',
      ];
  process.stdout.write(lines.join('\n'));
  const stop = async () => {
    await handle.close();
    await sim.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((err: Error) => {
  process.stderr.write(`demo: ${err.message}\n`);
  process.exit(1);
});
