import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { isEnumType, isInputObjectType, isInterfaceType, isObjectType, isScalarType } from 'graphql';
import { buildGraphqlSchema, printGraphqlSchema } from '../../src/graphql/schema';
import { repoRoot } from '../support/corpus';

describe('schema.graphql', () => {
  it('is exactly what the code emits (run `npm run schema:emit -- schema.graphql` after changing types)', () => {
    const committed = fs.readFileSync(path.join(repoRoot, 'schema.graphql'), 'utf8');
    assert.equal(committed, printGraphqlSchema());
  });

  it('documents every type, field, argument and enum value', () => {
    const schema = buildGraphqlSchema();
    const missing: string[] = [];
    for (const type of Object.values(schema.getTypeMap())) {
      if (type.name.startsWith('__') || (isScalarType(type) && ['String', 'Int', 'Float', 'Boolean', 'ID'].includes(type.name))) continue;
      if (!type.description && type !== schema.getQueryType()) missing.push(type.name);
      if (isObjectType(type) || isInterfaceType(type) || isInputObjectType(type)) {
        for (const field of Object.values(type.getFields())) {
          if (!field.description) missing.push(`${type.name}.${field.name}`);
          for (const arg of 'args' in field ? field.args : []) {
            if (!arg.description) missing.push(`${type.name}.${field.name}(${arg.name})`);
          }
        }
      }
      if (isEnumType(type)) {
        for (const v of type.getValues()) if (!v.description) missing.push(`${type.name}.${v.name}`);
      }
    }
    assert.deepEqual(missing, []);
  });
});
