/**
 * The read API's OpenAPI 3.1 document, written from the resource list (api-registry.ts) and the
 * zod schemas that check the answers (api-schemas.ts): nothing here describes a shape by hand.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { API_RESOURCES } from './api-registry.ts';
import { ErrorSchema, apiRegistry } from './api-schemas.ts';

export const API_BASE = '/api/v1';
export const OPENAPI_PATH = `${API_BASE}/openapi.json`;

const ref = (schema: z.ZodType) => ({ $ref: `#/components/schemas/${apiRegistry.get(schema)!.id}` });

const errorResponse = (description: string) => ({ description, content: { 'application/json': { schema: ref(ErrorSchema) } } });

/** The components every schema of the registry becomes, referring to each other by $ref. */
function componentSchemas(): Record<string, unknown> {
  const { schemas } = z.toJSONSchema(apiRegistry, { target: 'draft-2020-12', uri: (id) => `#/components/schemas/${id}` });
  return Object.fromEntries(
    Object.entries(schemas).map(([id, schema]) => {
      // A component is a schema inside the document: its place there is its identity.
      const { $schema: _dialect, $id: _id, ...rest } = schema as Record<string, unknown>;
      return [id, rest];
    }),
  );
}

/** A query parameter's schema as the document gives it: what the text given must be, read as its value. */
function querySchema(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return rest;
}

/** The document, as a plain object. */
export function openApiDocument(): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  for (const resource of API_RESOURCES) {
    paths[`${API_BASE}${resource.path}`] = {
      get: {
        operationId: resource.id,
        summary: resource.summary,
        description: resource.description,
        parameters: [
          ...resource.params.map((p) => ({ name: p.name, in: 'path', required: true, description: p.description, schema: { type: 'string' } })),
          ...(resource.query ?? []).map((q) => ({ name: q.name, in: 'query', required: false, description: q.description, schema: querySchema(q.schema) })),
          {
            name: 'asOf',
            in: 'query',
            required: false,
            description: 'a ledger position: the answer as the ledger stood once the event at that position was appended (0 to the head)',
            schema: { type: 'integer', minimum: 0 },
          },
          {
            name: 'If-None-Match',
            in: 'header',
            required: false,
            description: 'the ETag of an answer held already: answered 304 while the ledger has not moved past its position',
            schema: { type: 'string' },
          },
        ],
        responses: {
          '200': {
            description: resource.summary,
            headers: {
              ETag: { description: 'names the ledger position the answer was folded at', schema: { type: 'string' } },
              'Access-Control-Allow-Origin': { description: 'every site may read it', schema: { type: 'string', const: '*' } },
            },
            content: { 'application/json': { schema: ref(resource.schema) } },
          },
          '304': { description: 'the answer held (If-None-Match) is still the answer' },
          '400': errorResponse('a query parameter is wrong: the sentence says which and why'),
          '404': errorResponse('nothing by that id, now or at the position asked for'),
          '429': errorResponse('too many ledger-wide reads (asOf) at once from this address or in all; try again after Retry-After seconds'),
        },
      },
    };
  }
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: 'Spades tournament ledger: read API',
      version: '1.0.0',
      description:
        'Public, read-only JSON of what the ledger holds: tournaments, their brackets or rounds, standings and live tables, and games hand by hand. Every answer names the ledger position it was folded at, in its body and its ETag; `asOf` answers as the ledger stood at an earlier position. For changes as they happen, follow the server-sent event feed at /api/events/stream.',
    },
    paths,
    components: { schemas: componentSchemas() },
  };
}

/** The document as served, and the tag that ties every answer's ETag to this version of the shapes. */
export function servedDocument(): { text: string; tag: string } {
  const text = `${JSON.stringify(openApiDocument(), null, 2)}\n`;
  return { text, tag: createHash('sha256').update(text).digest('hex').slice(0, 8) };
}
