// The SDK floor's server, shared by the two reference rows' entry files (each bundled on its own): a no-op MCP
// server on the same SDK our server is built on (@modelcontextprotocol/server, `Server` + `serveStdio`, as
// packages/forge-mcp-server/src/stdio wires it), with one tool that answers each mapped call with a canned copy of
// our server's real answer to it (captured at the start of the run, read from the JSON file FLOOR_ANSWERS names).
import { readFileSync } from 'node:fs';
import { Server } from '@modelcontextprotocol/server';
import { serveStdio, StdioServerTransport } from '@modelcontextprotocol/server/stdio';

const FLOOR_TOOL = 'floor_answer'; // bench/lib/servers.mjs maps the calls onto this name

/**
 * Serves the floor over stdio until stdin ends or a signal arrives.
 * @param before when given, awaited with the call's key before each mapped call is answered (the work a
 *   reference row adds to the floor); the answer is the canned one all the same.
 */
export function serveFloor(before) {
  /** { [call key]: tools/call result } */
  const answers = JSON.parse(readFileSync(process.env.FLOOR_ANSWERS, 'utf8'));

  function buildServer() {
    const server = new Server(
      { name: 'sdk-floor', version: '1.0.0' },
      { capabilities: { tools: { listChanged: false } } },
    );
    server.setRequestHandler('tools/list', async () => {
      // Its start is over once this is answered: the launcher keeps its compile cache then, as for our server.
      setImmediate(() => globalThis[Symbol.for('forge-mcp-server.started')]?.());
      return {
        tools: [
          {
            name: FLOOR_TOOL,
            description:
              "Answers with a canned copy of forge-mcp-server's answer to the named benchmark call.",
            inputSchema: {
              type: 'object',
              properties: { call: { type: 'string', enum: Object.keys(answers) } },
              required: ['call'],
            },
          },
        ],
      };
    });
    server.setRequestHandler('tools/call', async (request) => {
      const call = request.params.arguments?.call;
      const answer = answers[call];
      if (!answer || request.params.name !== FLOOR_TOOL)
        return { content: [{ type: 'text', text: 'no such call' }], isError: true };
      if (before) await before(call);
      // A fresh top-level object per call, as a real handler builds one; the blocks themselves are shared.
      return { ...answer };
    });
    return server;
  }

  const handle = serveStdio(buildServer, {
    transport: new StdioServerTransport(process.stdin, process.stdout),
  });
  // Serving: the launcher our bin uses may now keep its compile cache at exit, as it does for our server.
  globalThis[Symbol.for('forge-mcp-server.serving')]?.();
  // No top-level await: bundled, the floor is CommonJS like our bin.
  return new Promise((resolve) => {
    process.stdin.once('end', resolve);
    process.stdin.once('close', resolve);
    process.once('SIGTERM', resolve);
    process.once('SIGINT', resolve);
  }).then(() => handle.close());
}
