/**
 * forge_find_action asks the client's model to restate a request nothing matched (sampling), through a real
 * MCP client over stdio in both protocol eras and over loopback HTTP: the restatement's matches with the line
 * that says so, exactly one sampling request carrying the query, and today's no-match answer, unchanged,
 * whenever the client cannot sample, errs, answers nothing usable, or the restatement matches nothing too.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  INITIALIZED,
  httpServer,
  rpc,
  sim,
  stdioClient,
  stdioRaw,
  textOf,
  until,
  type Connected,
  type ForgeSim,
} from './harness.js';

// Servers are spawned on a shared, loaded machine: generous limits, no timing asserted.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

let s: ForgeSim;
beforeAll(async () => {
  s = await sim();
});
afterAll(async () => {
  await s.close();
});

/** Words that name nothing in the catalog. */
const QUERY = 'zzqx qqzx';
/** The answer to QUERY without a restatement, exactly as before sampling was asked. */
const NO_MATCH = {
  text: `No action matches "${QUERY}". Try other words (for example the object: issue, merge request, pipeline, branch) or a canonical ID.`,
  structured: { matches: [] },
};

interface SamplingParams {
  messages: Array<{ role: string; content: { type: string; text?: string } }>;
  systemPrompt?: string;
  includeContext?: string;
  maxTokens: number;
}

/** A sampling answer holding `text`. */
const said = (text: string) => ({
  role: 'assistant',
  content: { type: 'text', text },
  model: 'test-model',
  stopReason: 'endTurn',
});

type Sampler = (params: SamplingParams, signal: AbortSignal) => unknown;

/** A client that declared sampling and answers it with `sampler`, recording every request it was sent. */
function sampling(c: Connected | Client, sampler: Sampler): SamplingParams[] {
  const asked: SamplingParams[] = [];
  const client = c instanceof Client ? c : c.client;
  client.setRequestHandler('sampling/createMessage', async (req, ctx) => {
    asked.push(req.params as SamplingParams);
    return (await sampler(req.params as SamplingParams, ctx.mcpReq.signal)) as never;
  });
  return asked;
}

const find = (c: Connected | Client, query: string, options?: { signal?: AbortSignal }) =>
  (c instanceof Client ? c : c.client).callTool(
    { name: 'forge_find_action', arguments: { query } },
    options as never,
  );

const ids = (r: unknown) =>
  ((r as { structuredContent?: { matches?: Array<{ id: string }> } }).structuredContent?.matches ?? []).map(
    (m) => m.id,
  );

/** The request carries the query as its one user message, no context, a small budget, and no token. */
function expectAskedFor(asked: SamplingParams[], query: string) {
  expect(asked).toHaveLength(1);
  const [q] = asked;
  expect(q.messages).toEqual([{ role: 'user', content: { type: 'text', text: query } }]);
  expect(q.systemPrompt).toMatch(/restate/);
  expect(q.includeContext).toBe('none');
  expect(q.maxTokens).toBe(64);
  const wire = JSON.stringify(q);
  for (const token of Object.values(s.tokens)) expect(wire).not.toContain(token);
}

/** The answer restated as `restated`, with issue.list among its matches. */
function expectRestated(r: Awaited<ReturnType<typeof find>>, restated: string) {
  expect(r.isError).toBeFalsy();
  const text = textOf(r);
  expect(text.split('\n')[0]).toBe(
    `No action matches "${QUERY}"; matched the client's restatement "${restated}":`,
  );
  expect(text).toMatch(/\n1\. issue\.list: /);
  expect(text).toMatch(/\nRun one with forge_execute_action \{action, params\}\.$/);
  expect(ids(r)).toContain('issue.list');
  expect((r.structuredContent as { restatedAs?: string }).restatedAs).toBe(restated);
}

function expectUnchanged(r: Awaited<ReturnType<typeof find>>) {
  expect(r.isError).toBeFalsy();
  expect(textOf(r)).toBe(NO_MATCH.text);
  expect(r.structuredContent).toEqual(NO_MATCH.structured);
}

describe.each([
  ['legacy era (sampling/createMessage during the call)', false],
  ['2026-07-28 era (input request, call re-sent)', true],
])('restating over stdio, %s', (_era, modern) => {
  const open = () => stdioClient(s, { modern, capabilities: { sampling: {} } });

  it("a query nothing matched is restated once by the client's model and answered with the restatement's matches", async () => {
    const c = await open();
    try {
      const asked = sampling(c, () => said('  list issues\nof the project, as asked  '));
      const r = await find(c, QUERY);
      expectAskedFor(asked, QUERY);
      expectRestated(r, 'list issues');
    } finally {
      await c.close();
    }
  });

  it('a restatement that matches nothing, a blank one or one without text leaves the no-match answer, asked once each', async () => {
    const c = await open();
    try {
      const answers = [
        said('qqzx zzqx'),
        said('  \n  '),
        { role: 'assistant', content: { type: 'image', data: 'AAAA', mimeType: 'image/png' }, model: 'm' },
      ];
      for (const answer of answers) {
        const asked = sampling(c, () => answer);
        expectUnchanged(await find(c, QUERY));
        expectAskedFor(asked, QUERY);
      }
    } finally {
      await c.close();
    }
  });

  it('a query that matches asks nothing; the next one nothing matched asks once', async () => {
    const c = await open();
    try {
      const asked = sampling(c, () => said('list issues'));
      const r = await find(c, 'list issues');
      expect(ids(r)).toContain('issue.list');
      expect(textOf(r)).not.toMatch(/restatement/);
      expect(r.structuredContent).not.toHaveProperty('restatedAs');
      expect(asked).toHaveLength(0);
      expectRestated(await find(c, QUERY), 'list issues');
      expect(asked).toHaveLength(1);
    } finally {
      await c.close();
    }
  });

  it('a client without sampling gets the no-match answer unchanged, where one with sampling is restated', async () => {
    const plain = await stdioClient(s, { modern });
    try {
      expectUnchanged(await find(plain, QUERY));
    } finally {
      await plain.close();
    }
    const c = await open();
    try {
      sampling(c, () => said('list issues'));
      expectRestated(await find(c, QUERY), 'list issues');
    } finally {
      await c.close();
    }
  });
});

describe('restating over stdio, legacy era only', () => {
  it('a sampling handler that errs leaves the no-match answer, after exactly one request', async () => {
    const c = await stdioClient(s, { capabilities: { sampling: {} } });
    try {
      const asked = sampling(c, () => {
        throw new Error('the model is unavailable');
      });
      expectUnchanged(await find(c, QUERY));
      expectAskedFor(asked, QUERY);
    } finally {
      await c.close();
    }
  });

  it("the client's cancel of the find call cancels the sampling request", async () => {
    const c = await stdioClient(s, { capabilities: { sampling: {} } });
    try {
      let cancelled = false;
      const asked = sampling(
        c,
        (_params, signal) =>
          new Promise((_resolve, reject) =>
            signal.addEventListener('abort', () => {
              cancelled = true;
              reject(new Error('cancelled'));
            }),
          ),
      );
      const call = new AbortController();
      const finding = find(c, QUERY, { signal: call.signal });
      finding.catch(() => undefined);
      await until(() => asked.length === 1, 'the sampling request');
      call.abort('the user stopped it');
      await expect(finding).rejects.toThrow();
      await until(() => cancelled, "the sampling request's cancellation");
      expect(asked).toHaveLength(1);
    } finally {
      await c.close();
    }
  });

  it('on the wire: a client that declared no sampling is sent no request; one that did is sent sampling/createMessage', async () => {
    const call = JSON.stringify({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'forge_find_action', arguments: { query: QUERY } },
    });
    const initialize = (capabilities: Record<string, unknown>) =>
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities, clientInfo: { name: 'raw', version: '1' } },
      });
    const plain = stdioRaw(s);
    try {
      plain.write(`${initialize({})}\n${INITIALIZED}\n${call}\n`);
      const messages = await plain.waitFor(2);
      expect(messages.filter((m) => m.method !== undefined)).toEqual([]);
      expect(messages[1]).toMatchObject({ id: 2, result: { structuredContent: NO_MATCH.structured } });
      expect(textOf(messages[1]!.result)).toBe(NO_MATCH.text);
    } finally {
      await plain.close();
    }
    const able = stdioRaw(s);
    try {
      able.write(`${initialize({ sampling: {} })}\n${INITIALIZED}\n${call}\n`);
      const [, question] = await able.waitFor(2);
      expect(question).toMatchObject({
        method: 'sampling/createMessage',
        params: { messages: [{ role: 'user', content: { type: 'text', text: QUERY } }], maxTokens: 64 },
      });
      able.write(`${JSON.stringify({ jsonrpc: '2.0', id: question!.id, result: said('list issues') })}\n`);
      const [, , answer] = await able.waitFor(3);
      expect(answer).toMatchObject({ id: 2, result: { structuredContent: { restatedAs: 'list issues' } } });
    } finally {
      await able.close();
    }
  });
});

describe('restating over loopback HTTP', () => {
  const connect = async (url: string, capabilities: Record<string, unknown>) => {
    const client = new Client(
      { name: 'modern', version: '1' },
      { capabilities: capabilities as never, versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: { authorization: `Bearer ${s.tokens.api}` } },
      }),
    );
    return client;
  };

  it('2026-07-28 era: restates once for a client with sampling, and leaves the no-match answer to one without', async () => {
    const server = await httpServer(s);
    try {
      const able = await connect(server.url, { sampling: {} });
      try {
        const asked = sampling(able, () => said('list issues'));
        expectRestated(await find(able, QUERY), 'list issues');
        expectAskedFor(asked, QUERY);
        const unmatched = sampling(able, () => said('qqzx zzqx'));
        expectUnchanged(await find(able, QUERY));
        expect(unmatched).toHaveLength(1);
      } finally {
        await able.close();
      }
      const plain = await connect(server.url, {});
      try {
        expectUnchanged(await find(plain, QUERY));
      } finally {
        await plain.close();
      }
    } finally {
      await server.stop();
    }
  });

  it('a stateful session of the 2025 era is asked during the call, once', async () => {
    const server = await httpServer(s, ['--stateless=false']);
    try {
      const legacy = new Client({ name: 'legacy', version: '1' }, { capabilities: { sampling: {} } });
      await legacy.connect(
        new StreamableHTTPClientTransport(new URL(server.url), {
          requestInit: { headers: { authorization: `Bearer ${s.tokens.api}` } },
        }),
      );
      try {
        expect(legacy.getNegotiatedProtocolVersion()).not.toBe('2026-07-28');
        const asked = sampling(legacy, () => said('list issues'));
        expectRestated(await find(legacy, QUERY), 'list issues');
        expectAskedFor(asked, QUERY);
      } finally {
        await legacy.close();
      }
    } finally {
      await server.stop();
    }
  });

  it('the restatement is taken back only with the state issued for that query: another query or none is refused -32602', async () => {
    const server = await httpServer(s);
    const headers = {
      authorization: `Bearer ${s.tokens.api}`,
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'forge_find_action',
    };
    const call = (id: number, query: string, extra: Record<string, unknown> = {}) => ({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: {
        name: 'forge_find_action',
        arguments: { query },
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
          'io.modelcontextprotocol/clientCapabilities': { sampling: {} },
        },
        ...extra,
      },
    });
    const send = async (body: unknown) => {
      const text = await (await rpc(server.url, headers, body)).text();
      return JSON.parse(/^data: (.*)$/m.exec(text)?.[1] ?? text) as {
        result?: Record<string, unknown>;
        error?: { code: number; message: string };
      };
    };
    try {
      const first = await send(call(1, QUERY));
      expect(first.result).toMatchObject({
        resultType: 'input_required',
        inputRequests: {
          restate: {
            method: 'sampling/createMessage',
            params: {
              messages: [{ role: 'user', content: { type: 'text', text: QUERY } }],
              includeContext: 'none',
              maxTokens: 64,
            },
          },
        },
      });
      const requestState = first.result!.requestState as string;
      expect(typeof requestState).toBe('string');
      const inputResponses = { restate: said('list issues') };
      for (const [id, query, extra] of [
        [2, `${QUERY} zzqx`, { inputResponses, requestState }],
        [3, QUERY, { inputResponses }],
      ] as const) {
        const refused = await send(call(id, query, extra));
        expect(refused.error?.code).toBe(-32602);
        expect(refused.error?.message).toContain('requestState');
      }
      const back = await send(call(4, QUERY, { inputResponses, requestState }));
      expect(back.result?.structuredContent).toMatchObject({ restatedAs: 'list issues' });
    } finally {
      await server.stop();
    }
  });
});
