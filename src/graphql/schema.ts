import 'reflect-metadata';
import { lexicographicSortSchema, printSchema, type GraphQLSchema } from 'graphql';
import { buildSchemaSync } from 'type-graphql';
import { LineageEdgeResolver, LineageGraphResolver, LineageNodeResolver, LineageQueries } from './lineage/resolvers';
import { BrowseQueries } from './browse/resolvers';
import { CoverageQueries } from './coverage/resolvers';
import { DiffQueries } from './diff/resolvers';
import { ExploreQueries } from './explore/resolvers';
import { IdentityQueries } from './identity/resolvers';
import { BlastRadiusResolver, ImpactItemResolver, ImpactQueries } from './impact/resolvers';
import { TraceHopResolver, TraceQueries } from './trace/resolvers';
import { oneWalkAtATime } from './walks';
import { DeclaredResolutionResolver, JobSqlResolver } from './sql/resolvers';
import { DatasetFieldResolver, DatasetResolver, JobResolver, NodeQueries, RunLinkResolver, RunResolver } from './nodes/resolvers';

/** The executable schema, built from the decorated classes (code first). */
export function buildGraphqlSchema(): GraphQLSchema {
  return buildSchemaSync({
    resolvers: [
      NodeQueries,
      BrowseQueries,
      DatasetResolver,
      DatasetFieldResolver,
      JobResolver,
      JobSqlResolver,
      DeclaredResolutionResolver,
      RunResolver,
      RunLinkResolver,
      LineageQueries,
      LineageGraphResolver,
      LineageNodeResolver,
      LineageEdgeResolver,
      TraceQueries,
      TraceHopResolver,
      ImpactQueries,
      BlastRadiusResolver,
      ImpactItemResolver,
      CoverageQueries,
      DiffQueries,
      ExploreQueries,
      IdentityQueries,
    ],
    globalMiddlewares: [oneWalkAtATime],
    validate: false,
  });
}

/** The SDL committed as schema.graphql (sorted, so that the file only changes with the schema). */
export function printGraphqlSchema(schema: GraphQLSchema = buildGraphqlSchema()): string {
  return printSchema(lexicographicSortSchema(schema)) + '\n';
}
