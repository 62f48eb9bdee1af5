/**
 * prompts/list and prompts/get: workflow prompts projected from the session's view. A prompt whose
 * reads include an excluded action is not offered; arguments are checked before anything is sent.
 */
import { ProtocolError, type Server } from '@modelcontextprotocol/server';
import { withoutReferenceMark } from '../executor/schema.js';
import { callsNamedIn } from '../resources/manifest.js';
import { projectArgument, readAction } from '../resources/read.js';
import type { Session } from '../session/index.js';
import { PROMPTS, type Fetch, type PromptSpec } from './table.js';

export { PROMPTS } from './table.js';

const INVALID_PARAMS = -32602;
const INTEGER_ARGS = new Set(['merge_request_iid', 'issue_iid', 'pipeline_id', 'job_id']);

/** `value` of the argument `name` without the '@' the instance writes before a username in a mention. */
export function withoutMention(name: string, value: string): string {
  return name === 'username' && /^@[^@\s]+$/.test(value) ? value.slice(1) : value;
}

export function offeredPrompts(session: Session): PromptSpec[] {
  if (session.config.capabilitySurface === 'minimal') return [];
  return PROMPTS.filter((p) =>
    p.reads.every((id) => {
      const a = session.view.catalog.get(id);
      return !!a && session.view.availability(a).state !== 'absent';
    }),
  );
}

/** The first line of a failure's text, without its Markdown heading mark. */
function headline(text: string): string {
  return text
    .split('\n')[0]
    .replace(/^#+\s*/, '')
    .replace(/\.$/, '');
}

/**
 * Listed by prompts/list: the prompts every read of which the session's surfaces list (a fine-grained grant lists
 * only what it reaches). One not listed is still made when asked for, each refused read reported inside it.
 */
function listedPrompts(session: Session): PromptSpec[] {
  return offeredPrompts(session).filter((p) =>
    p.reads.every((id) => {
      const a = session.view.catalog.get(id);
      return !!a && session.view.isListed(a);
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
    const trimmed = given[a.name]?.trim();
    // An IID given as the instance writes its reference (!4, #12) is read as the number, as tools read it, and a
    // username as the instance writes a mention (@alice) is read as the username.
    const v = trimmed && withoutMention(a.name, withoutReferenceMark(a.name, trimmed));
    if (!v) {
      if (a.required)
        fail(
          `Prompt ${p.name} needs the argument ${a.name} (${a.description.replace(/\.$/, '')}). Send all of: ${shape}.`,
        );
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
      prompts: listedPrompts(session).map((p) => ({
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
    // The project as the prompt names it to the model: its path, also when given encoded or as a web URL.
    if (args.project_id) {
      const on = projectArgument(session, args.project_id);
      if ('refused' in on) fail(`Prompt ${p.name}: ${on.refused}`);
      args.project_id = (on as { path: string }).path;
    }
    let reads = 0;
    const missing: string[] = [];
    // The prompt is one action to the user: its reads share one deadline, started now.
    const due = session.client.deadlineFromNow();
    const fetch: Fetch = async (id, a, opts) => {
      const r = await readAction(session, id, a, ctx.mcpReq.signal, undefined, due);
      // An argument no tool would take (a pasted URL of another instance): the prompt cannot be made.
      if (!r.ok && r.kind === 'invalid') fail(`Prompt ${p.name}: ${r.text}`);
      const absent = !r.ok && r.kind === 'failed' && /not found/i.test(r.text);
      // Nothing there yet is an answer, unless the project or group itself is what is missing.
      const answer = absent && opts?.absentOk && !/\b(Project|Group) Not Found\b/.test(r.text);
      // A read of no argument (the current user), or one a guard kept from the instance (a tier, a grant), says
      // nothing of whether the arguments name anything.
      if (Object.keys(a).length && !answer && (r.ok || r.kind === 'failed')) {
        reads++;
        if (absent) missing.push((r as { text: string }).text);
      }
      if (r.ok) return r.data as never;
      // A failure text starts with the action's ID where the executor's own words do.
      return r.text.startsWith(`${id}:`) ? r.text : `${id}: ${r.text}`;
    };
    const text = await p.render(args, fetch);
    // Every read answered not found: the arguments name nothing on the instance, and a prompt about nothing
    // would only mislead the model. A refusal or another failure is reported inside the prompt instead.
    if (reads > 0 && missing.length === reads)
      fail(
        `Prompt ${p.name}: the instance has nothing for ${Object.entries(args)
          .map(([k, v]) => `${k} ${JSON.stringify(v)}`)
          .join(
            ', ',
          )} (${headline(missing[0])}). Check the values; completion/complete suggests those that exist.`,
      );
    // The actions the instructions name, as this session's tool surface calls them.
    const calls = callsNamedIn(session, text);
    return {
      description: p.description,
      messages: [{ role: 'user', content: { type: 'text', text: calls ? `${text}\n\n${calls}` : text } }],
    } as never;
  });
}
