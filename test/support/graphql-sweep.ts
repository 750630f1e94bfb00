import fs from 'node:fs';
import path from 'node:path';
import {
  buildSchema,
  getNamedType,
  isEnumType,
  isInterfaceType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
} from 'graphql';
import { repoRoot } from './corpus';

/**
 * GraphQL documents that reach every field of the committed schema.graphql a client can ask for
 * without arguments of its own: for a root field, its selection (every such field, nested up to
 * `depth` object levels, each type once per path) and its variants (each enum or boolean argument
 * set to each of its values in turn, the others at their defaults). What the API runs for them is
 * what a catalog tool asking "everything" would make it run.
 */
export function sweepSchema(): GraphQLSchema {
  return buildSchema(fs.readFileSync(path.join(repoRoot, 'schema.graphql'), 'utf8'));
}

/** The selection set of `type`: its fields that need no argument, nested to `depth` levels. */
export function selectAll(schema: GraphQLSchema, type: GraphQLNamedType, depth: number, seen: readonly string[] = []): string {
  if (isLeafType(type)) return '';
  const fields = isObjectType(type) || isInterfaceType(type) ? Object.values(type.getFields()) : [];
  const parts: string[] = [];
  for (const f of fields) {
    if (f.args.some((a) => isNonNullType(a.type) && a.defaultValue === undefined)) continue;
    const named = getNamedType(f.type);
    if (isLeafType(named)) parts.push(f.name);
    else if (depth > 0 && !seen.includes(named.name)) {
      const inner = selectAll(schema, named, depth - 1, [...seen, named.name]);
      if (inner) parts.push(`${f.name} ${inner}`);
    }
  }
  if (isInterfaceType(type)) {
    for (const impl of schema.getImplementations(type).objects) {
      const inner = selectAll(schema, impl, depth, seen);
      if (inner) parts.push(`... on ${impl.name} ${inner}`);
    }
  }
  return parts.length > 0 ? `{ __typename ${parts.join(' ')} }` : '';
}

/**
 * One document per variant of root field `name`, with `args` (GraphQL literals) set as given;
 * `invalid` names enum values the root refuses (trace's BOTH), which get no variant.
 */
export function sweepDocuments(schema: GraphQLSchema, name: string, args: Record<string, string>, invalid: Record<string, string[]> = {}, depth = 3): string[] {
  const field: GraphQLField<unknown, unknown> | undefined = schema.getQueryType()?.getFields()[name];
  if (!field) throw new Error(`no Query.${name} in schema.graphql`);
  const selection = selectAll(schema, getNamedType(field.type), depth, [getNamedType(field.type).name]);
  const doc = (a: Record<string, string>) => {
    const list = Object.entries(a).map(([k, v]) => `${k}: ${v}`);
    return `{ ${name}${list.length > 0 ? `(${list.join(', ')})` : ''} ${selection} }`;
  };
  const docs = [doc(args)];
  for (const arg of field.args) {
    if (arg.name in args) continue;
    const named = getNamedType(arg.type);
    const listed = isListType(isNonNullType(arg.type) ? arg.type.ofType : arg.type);
    if (isEnumType(named)) {
      const tried = named.getValues().filter((v) => v.value !== arg.defaultValue && !(invalid[arg.name] ?? []).includes(v.name));
      for (const v of tried) docs.push(doc({ ...args, [arg.name]: listed ? `[${v.name}]` : v.name }));
    } else if (named.name === 'Boolean' && !listed) {
      docs.push(doc({ ...args, [arg.name]: String(!(arg.defaultValue ?? false)) }));
    }
  }
  return docs;
}
