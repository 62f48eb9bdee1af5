/**
 * The tools manifest: what this session's surface offers, and for one action how to call it, its schema,
 * its read/destructive metadata, its fine-grained needs and, when the session may not run it, why (in the
 * same words as the refusal a call would get).
 */
import type { ActionEntry, ActionSpec } from '../catalog/types.js';
import { fineGrainedTable } from '../catalog/fine-grained.generated.js';
import { inputSchema } from '../executor/index.js';
import { EXECUTE_TOOL } from '../surfaces/index.js';
import type { Session } from '../session/index.js';

/** The tool that runs the action on the session's surface. */
function toolOf(session: Session, a: ActionEntry): string {
  switch (session.surfaceName) {
    case 'dynamic':
      return EXECUTE_TOOL;
    case 'meta':
      return session.view.catalog.domain(a.id)!.metaTool;
    default:
      return a.tool;
  }
}

function callShape(session: Session, a: ActionSpec): { tool: string; arguments: Record<string, unknown> } {
  const params = Object.fromEntries((a.required ?? []).map((p) => [p, `<${p}>`]));
  const tool = toolOf(session, a);
  switch (session.surfaceName) {
    case 'dynamic':
      return { tool, arguments: { action: a.id, params } };
    case 'meta':
      return { tool, arguments: { action: a.id.slice(a.id.indexOf('.') + 1), params } };
    default:
      return { tool, arguments: params };
  }
}

function withheldBlock(session: Session, a: ActionEntry) {
  const v = session.view.availability(a);
  if (v.state === 'withheld') return { reason: v.reason, message: v.text };
  if (v.state === 'tier') return { reason: 'tier', needs: v.needs, message: v.text };
  // Listed by no surface while the grant lets a call through (listing is stricter than calling).
  if (!session.view.isListed(a) && session.fineGrained) {
    const text = session.fineGrained.listingRefusal(a);
    if (text) return { reason: 'fine_grained', message: text };
  }
  return undefined;
}

function fineGrainedBlock(a: ActionEntry) {
  const row = fineGrainedTable()[a.id];
  if (!row) return { judged: false };
  return {
    judged: row.reach === 'yes',
    reach: row.reach,
    ...(row.needs
      ? {
          any_of: row.needs.map((alt) => alt.map(([permission, boundaries]) => ({ permission, boundaries }))),
        }
      : {}),
    ...(row.withheld ? { unreachable: row.withheld } : {}),
  };
}

/** forge://tools/<id>: one entry, or undefined when the action is not offered at all. */
export async function manifestEntry(
  session: Session,
  id: string,
): Promise<Record<string, unknown> | undefined> {
  const entry = session.view.catalog.get(id) ?? session.view.catalog.byToolName(id);
  if (!entry || session.view.availability(entry).state === 'absent') return undefined;
  const a = await session.view.catalog.spec(entry);
  const withheld = withheldBlock(session, a);
  return {
    id: a.id,
    title: a.title,
    description: a.description,
    surface: session.surfaceName,
    call: callShape(session, a),
    input_schema: inputSchema(a),
    read_only: !a.write,
    destructive: a.destructive,
    idempotent: a.idempotent,
    tier: a.tier,
    scope: a.scope,
    fine_grained: fineGrainedBlock(a),
    // Always present: null when the session may run the action.
    withheld: withheld ?? null,
  };
}

/** forge://tools: every action the session's surface offers or withholds, one line each. */
export function manifest(session: Session, subscribable: string[]): Record<string, unknown> {
  const entries = [];
  for (const a of session.view.catalog.actions) {
    if (session.view.availability(a).state === 'absent') continue;
    const w = withheldBlock(session, a);
    entries.push({
      id: a.id,
      tool: toolOf(session, a),
      read_only: !a.write,
      destructive: a.destructive,
      ...(w ? { withheld: w.reason } : {}),
      uri: `forge://tools/${a.id}`,
    });
  }
  return {
    surface: session.surfaceName,
    count: entries.length,
    available: entries.filter((e) => !('withheld' in e)).length,
    tools: entries,
    subscriptions: { subscribable_uri_templates: subscribable },
  };
}

/** Why a withheld action cannot run for this session, in a few words. */
const UNAVAILABLE: Record<string, string> = {
  read_only: 'read-only mode',
  scope: "the token's scopes",
  admin_mode: 'needs admin mode',
  fine_grained: "the token's fine-grained grant",
};

/**
 * How the canonical IDs a text names (a prompt's or a guide's instructions) are called on the session's tool
 * surface, one line each (none on the dynamic surface, where forge_execute_action takes the ID as written), and which
 * of them this session cannot run (read-only mode, the exclude list, scopes, grant, tier), so a model does not plan on them. Set
 * after the text; undefined when there is nothing to say.
 */
export function callsNamedIn(session: Session, text: string): string | undefined {
  const named = [...new Set(text.match(/\b[a-z][a-z_]*\.[a-z][a-z0-9_]*\b/g) ?? [])].flatMap((id) => {
    const a = session.view.catalog.get(id);
    return a ? [a] : [];
  });
  const absent = named.filter((a) => session.view.availability(a).state === 'absent').map((a) => a.id);
  const why = (a: ActionEntry) => {
    const v = session.view.availability(a);
    if (v.state === 'absent') return 'not offered';
    if (v.state === 'tier') return `needs ${v.needs}`;
    return v.state === 'withheld' ? UNAVAILABLE[v.reason] : undefined;
  };
  const unavailable = named.flatMap((a) => {
    const reason = why(a);
    return reason ? [`${a.id} (${reason})`] : [];
  });
  const lines =
    session.surfaceName === 'dynamic'
      ? []
      : named
          .filter((a) => !absent.includes(a.id))
          .map((a) =>
            session.surfaceName === 'meta'
              ? `- ${a.id}: ${toolOf(session, a)} with action "${a.id.slice(a.id.indexOf('.') + 1)}"`
              : `- ${a.id}: ${toolOf(session, a)}`,
          );
  const parts = [
    ...(lines.length
      ? [
          `The actions named above are canonical IDs; on this server's ${session.surfaceName} tool surface call them as:`,
          ...lines,
        ]
      : []),
    ...(unavailable.length
      ? [`Not available to this session: ${unavailable.join(', ')}; do not plan on them.`]
      : []),
  ];
  return parts.length ? `---\n${parts.join('\n')}` : undefined;
}
