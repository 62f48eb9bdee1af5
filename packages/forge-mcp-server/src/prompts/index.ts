/**
 * prompts/list and prompts/get: workflow prompts projected from the session's view. A prompt whose
 * reads include an excluded action is not offered; arguments are checked before anything is sent.
 */
import { ProtocolError, type Server } from '@modelcontextprotocol/server';
import { projectOnInstance } from '../catalog/project-ref.js';
import { readAction } from '../resources/read.js';
import type { Session } from '../session/index.js';
import { PROMPTS, type PromptSpec } from './table.js';

export { PROMPTS } from './table.js';

const INVALID_PARAMS = -32602;
const INTEGER_ARGS = new Set(['merge_request_iid', 'issue_iid', 'pipeline_id', 'job_id']);

export function offeredPrompts(session: Session): PromptSpec[] {
  if (session.config.capabilitySurface === 'minimal') return [];
  return PROMPTS.filter((p) =>
    p.reads.every((id) => {
      const a = session.view.catalog.get(id);
      return !!a && session.view.availability(a).state !== 'absent';
    }),
  );
}

function fail(message: string): never {
  throw new ProtocolError(INVALID_PARAMS, message);
}

/** The prompt's arguments, checked: unknown, missing and malformed ones refused with what to send. */
export function checkArguments(p: PromptSpec, given: Record<string, string> = {}): Record<string, string> {
  const shape = p.args.map((a) => `${a.name}${a.required ? '' : '?'}`).join(', ');
  for (const k of Object.keys(given))
    if (!p.args.some((a) => a.name === k))
      fail(`Prompt ${p.name} has no argument ${JSON.stringify(k)}; its arguments are ${shape}.`);
  const out: Record<string, string> = {};
  for (const a of p.args) {
    const v = given[a.name]?.trim();
    if (!v) {
      if (a.required)
        fail(`Prompt ${p.name} needs the argument ${a.name} (${a.description}). Send all of: ${shape}.`);
      continue;
    }
    if ((a.days || INTEGER_ARGS.has(a.name)) && !/^[1-9]\d{0,5}$/.test(v))
      fail(
        `Prompt ${p.name}: ${a.name} must be a positive whole number (for example 7); got ${JSON.stringify(v)}.`,
      );
    out[a.name] = v;
  }
  return out;
}

export function registerPrompts(server: Server, session: Session, guardSession: () => void): void {
  server.setRequestHandler('prompts/list', async () => {
    guardSession();
    return {
      prompts: offeredPrompts(session).map((p) => ({
        name: p.name,
        title: p.title,
        description: p.description,
        arguments: p.args.map((a) => ({ name: a.name, description: a.description, required: !!a.required })),
      })),
    } as never;
  });

  server.setRequestHandler('prompts/get', async (request, ctx) => {
    guardSession();
    const p = offeredPrompts(session).find((x) => x.name === request.params.name);
    if (!p)
      fail(
        `Unknown prompt ${JSON.stringify(request.params.name)}; prompts/list names the prompts offered (for example ${offeredPrompts(session)[0]?.name ?? 'none on this server'}).`,
      );
    const args = checkArguments(p, request.params.arguments as Record<string, string> | undefined);
    // A person types the project: a pasted URL is read against the instance, as a tool's project_id is.
    if (args.project_id) {
      const on = projectOnInstance(args.project_id, session.client.base);
      if ('refused' in on) fail(`Prompt ${p.name}: ${on.refused}`);
      args.project_id = on.path;
    }
    const fetch = async (id: string, a: Record<string, unknown>) => {
      const r = await readAction(session, id, a, ctx.mcpReq.signal);
      return r.ok ? (r.data as never) : `${id}: ${r.text}`;
    };
    const text = await p.render(args, fetch);
    return {
      description: p.description,
      messages: [{ role: 'user', content: { type: 'text', text } }],
    } as never;
  });
}
