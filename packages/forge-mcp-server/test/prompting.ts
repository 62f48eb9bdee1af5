/**
 * What the prompt tests share: a prompt's text through a real client, a refusal caught with its code and message,
 * and a change made on the instance through its API, as another user of it would make it.
 */
import { expect } from 'vitest';
import type { Connected, ForgeSim } from './harness.js';

/** The one message prompts/get answers, as text. */
export async function promptText(c: Connected, name: string, args: Record<string, string>): Promise<string> {
  const r = await c.client.getPrompt({ name, arguments: args });
  expect(r.messages).toHaveLength(1);
  return (r.messages[0].content as { text: string }).text;
}

/** The JSON-RPC error a request ends in; a request that succeeds fails the test. */
export async function failure(p: Promise<unknown>): Promise<{ code: number; message: string }> {
  try {
    await p;
  } catch (e) {
    return e as { code: number; message: string };
  }
  throw new Error('no error');
}

/** The JSON-RPC error prompts/get ends in for these arguments; a prompt made fails the test. */
export const refusal = (c: Connected, name: string, args: Record<string, string>) =>
  failure(c.client.getPrompt({ name, arguments: args }));

/** A change made through the instance's API (as alice unless another token is given): it must succeed. */
export async function change(
  s: ForgeSim,
  method: string,
  path: string,
  body: Record<string, unknown>,
  token = s.tokens.api,
): Promise<Record<string, unknown>> {
  const res = await fetch(`${s.url}/api/v4${path}`, {
    method,
    headers: { 'PRIVATE-TOKEN': token, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.ok, `${method} ${path}: ${res.status}`).toBe(true);
  const text = await res.text();
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}
