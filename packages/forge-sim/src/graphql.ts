/** Generic GraphQL: parse the document (no schema) and answer each selected field with a value its name suggests. */
import { GraphQLError, Kind, parse } from 'graphql';
import type {
  DocumentNode,
  FragmentDefinitionNode,
  OperationDefinitionNode,
  SelectionSetNode,
} from 'graphql';

export interface ParsedOperation {
  doc: DocumentNode;
  op: OperationDefinitionNode;
  /** Operation name, or the first root field when unnamed. */
  name: string;
  kind: 'query' | 'mutation' | 'subscription';
  rootFields: { key: string; name: string }[];
}

export function parseOperation(query: string, operationName?: string): ParsedOperation | { error: string } {
  let doc: DocumentNode;
  try {
    doc = parse(query);
  } catch (err) {
    if (err instanceof GraphQLError) {
      const loc = err.locations?.[0];
      const detail = err.message.replace(/^Syntax Error: /, '');
      return {
        error: `Parse error on ${JSON.stringify(detail)}${loc ? ` at [${loc.line}, ${loc.column}]` : ''}`,
      };
    }
    return { error: 'Parse error' };
  }
  const ops = doc.definitions.filter(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  );
  const op = operationName ? ops.find((o) => o.name?.value === operationName) : ops[0];
  if (!op)
    return {
      error: operationName
        ? `Unknown operation named "${operationName}".`
        : 'No operations in query document',
    };
  const rootFields = op.selectionSet.selections.flatMap((s) =>
    s.kind === Kind.FIELD ? [{ key: s.alias?.value ?? s.name.value, name: s.name.value }] : [],
  );
  return {
    doc,
    op,
    name: op.name?.value ?? rootFields[0]?.name ?? 'anonymous',
    kind: op.operation as ParsedOperation['kind'],
    rootFields,
  };
}

/** Root fields whose type name is not their singular, capitalised name. */
const TYPE_OF: Record<string, string> = {
  currentUser: 'UserCore',
  user: 'UserCore',
  users: 'UserCore',
  metadata: 'Metadata',
};

const camelType = (field: string): string => {
  if (TYPE_OF[field]) return TYPE_OF[field];
  const singular = field.endsWith('ies')
    ? `${field.slice(0, -3)}y`
    : field.endsWith('s') && !field.endsWith('ss')
      ? field.slice(0, -1)
      : field;
  return singular.charAt(0).toUpperCase() + singular.slice(1);
};

function scalar(field: string, typeName: string): unknown {
  const f = field;
  if (f === 'id') return `gid://gitlab/${typeName}/1`;
  if (f === 'iid') return '1';
  if (f === '__typename') return typeName;
  if (/^(count|total|totalCount)$|Count$|^total[A-Z]|Size$|^size$|^weight$|^position$|Number$/.test(f))
    return 1;
  if (
    /^(is|has|can)[A-Z]|Enabled$|^enabled$|^active$|^confidential$|^locked$|^draft$|^archived$|^resolved$|^resolvable$|^mergeable$|^approved$|^system$|^internal$/.test(
      f,
    )
  )
    return /^(is|has)[A-Z]/.test(f) ? false : true;
  if (/At$/.test(f)) return '2025-01-15T10:00:00Z';
  if (/(On|Date)$/.test(f)) return '2025-01-15';
  if (/(webUrl|Url|url|Path|path)$/.test(f))
    return f.toLowerCase().includes('path') ? 'acme/widgets' : 'http://forge.test/acme/widgets';
  if (f === 'state') return 'opened';
  if (f === 'status') return 'SUCCESS';
  if (/^(sha|.*Sha)$/.test(f)) return 'a'.repeat(40);
  if (/(Cursor|cursor)$/.test(f)) return 'eyJpZCI6IjEifQ';
  if (f === 'errors') return [];
  if (f === 'username') return 'alice';
  if (f === 'email' || f === 'publicEmail') return 'alice@forge.test';
  return `${f} 1`;
}

function fragmentsOf(doc: DocumentNode): Map<string, FragmentDefinitionNode> {
  const out = new Map<string, FragmentDefinitionNode>();
  for (const d of doc.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) out.set(d.name.value, d);
  return out;
}

function resolveSelection(
  set: SelectionSetNode,
  typeName: string,
  frags: Map<string, FragmentDefinitionNode>,
  depth: number,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const sel of set.selections) {
    if (sel.kind === Kind.FIELD) {
      const key = sel.alias?.value ?? sel.name.value;
      out[key] = resolveField(sel.name.value, sel.selectionSet, typeName, frags, depth);
    } else if (sel.kind === Kind.INLINE_FRAGMENT) {
      Object.assign(
        out,
        resolveSelection(sel.selectionSet, sel.typeCondition?.name.value ?? typeName, frags, depth),
      );
    } else {
      const frag = frags.get(sel.name.value);
      if (frag)
        Object.assign(out, resolveSelection(frag.selectionSet, frag.typeCondition.name.value, frags, depth));
    }
  }
  return out;
}

function resolveField(
  name: string,
  set: SelectionSetNode | undefined,
  parentType: string,
  frags: Map<string, FragmentDefinitionNode>,
  depth: number,
): unknown {
  if (!set) return scalar(name, parentType);
  if (depth > 12) return null;
  if (name === 'nodes') return [resolveSelection(set, parentType, frags, depth + 1)];
  if (name === 'edges') return [resolveSelection(set, parentType, frags, depth + 1)];
  if (name === 'node') return resolveSelection(set, parentType, frags, depth + 1);
  if (name === 'pageInfo') return resolveSelection(set, 'PageInfo', frags, depth + 1);
  const type = camelType(name);
  const connection = set.selections.some(
    (s) => s.kind === Kind.FIELD && ['nodes', 'edges', 'pageInfo', 'count'].includes(s.name.value),
  );
  // A plural name without connection fields is a plain list.
  if (
    !connection &&
    /s$/.test(name) &&
    !/(Status|status|ss|Stats|stats|Settings|settings|Details|details|Permissions|permissions|Links|links)$/.test(
      name,
    )
  ) {
    return [resolveSelection(set, type, frags, depth + 1)];
  }
  return resolveSelection(set, connection ? type : type, frags, depth + 1);
}

/** `data` for the operation: every root field answered from its selection set; mutation payloads carry `errors: []`. */
export function answer(parsed: ParsedOperation): Record<string, unknown> {
  const frags = fragmentsOf(parsed.doc);
  const data: Record<string, unknown> = {};
  for (const sel of parsed.op.selectionSet.selections) {
    if (sel.kind !== Kind.FIELD) continue;
    const key = sel.alias?.value ?? sel.name.value;
    if (parsed.kind === 'mutation') {
      const payload = sel.selectionSet
        ? resolveSelection(sel.selectionSet, `${camelType(sel.name.value)}Payload`, frags, 1)
        : {};
      if (sel.selectionSet && !('errors' in payload)) payload.errors = [];
      data[key] = sel.selectionSet ? payload : null;
    } else {
      data[key] = resolveField(sel.name.value, sel.selectionSet, 'Query', frags, 1);
    }
  }
  return data;
}
