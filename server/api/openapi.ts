/**
 * The read API's OpenAPI 3.1 document, written from the resource list (api-registry.ts) and the
 * zod schemas that check the answers (api-schemas.ts): nothing here describes a shape by hand.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { API_RESOURCES } from './api-registry.ts';
import { ErrorSchema, apiRegistry } from './api-schemas.ts';
import { feedComponents, feedPaths } from './feed-document.ts';

export const API_BASE = '/api/v1';
export const OPENAPI_PATH = `${API_BASE}/openapi.json`;

const ref = (schema: z.ZodType) => ({ $ref: `#/components/schemas/${apiRegistry.get(schema)!.id}` });

/** The RateLimit headers an as-of read carries (IETF draft): its address's quota of such reads at once, and what is left of it. */
const RATE_LIMIT_DOC = {
  'RateLimit-Policy': {
    description: 'with asOf: `"as-of-reads";q=4;qu="concurrent-requests"`, the ledger-wide reads one address may have running or waiting at once',
    schema: { type: 'string' },
  },
  RateLimit: { description: 'with asOf: `"as-of-reads";r=N`, how many more this address may ask for now', schema: { type: 'string' } },
};

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
            schema: {
              type: 'integer',
              minimum: 0,
              maximum: 999_999_999_999_999,
              description: 'at most the ledger’s head, which every answer’s `position` names',
            },
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
              ...RATE_LIMIT_DOC,
              'Access-Control-Allow-Origin': { description: 'every site may read it', schema: { type: 'string', const: '*' } },
            },
            content: { 'application/json': { schema: ref(resource.schema) } },
          },
          '304': { description: 'the answer held (If-None-Match) is still the answer' },
          '400': errorResponse('a query parameter is wrong: the sentence says which and why'),
          '404': errorResponse('nothing by that id, now or at the position asked for'),
          '429': {
            ...errorResponse('too many ledger-wide reads (asOf) waiting from this address or in all; try again after Retry-After seconds'),
            headers: { 'Retry-After': { description: 'seconds to wait before trying again', schema: { type: 'integer', minimum: 1 } }, ...RATE_LIMIT_DOC },
          },
        },
      },
      options: {
        operationId: `${resource.id}Options`,
        summary: 'What another site may send',
        description:
          'A browser’s preflight before a cross-origin request with If-None-Match. Any method but GET, HEAD and OPTIONS is answered 405 (MethodNotAllowed).',
        parameters: resource.params.map((p) => ({ name: p.name, in: 'path', required: true, description: p.description, schema: { type: 'string' } })),
        responses: {
          '204': {
            description: 'GET may be sent from any site, with If-None-Match',
            headers: {
              'Access-Control-Allow-Origin': { schema: { type: 'string', const: '*' } },
              'Access-Control-Allow-Methods': { schema: { type: 'string', const: 'GET, HEAD, OPTIONS' } },
              'Access-Control-Allow-Headers': { schema: { type: 'string' } },
            },
          },
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
        'Public, read-only JSON of what the ledger holds: tournaments, their brackets or rounds, standings and live tables, and games hand by hand. Every answer names the ledger position it was folded at, in its body and its ETag; `asOf` answers as the ledger stood at an earlier position. A refusal carries a sentence for people and a stable `code` for programs. Query parameters an address does not take are ignored. For changes as they happen, follow the server-sent event feed at /api/events/stream (`?tournament=` for one tournament), which any site may read.',
    },
    servers: [{ url: '/', description: 'the server this document was read from' }],
    paths: { ...paths, ...feedPaths() },
    components: {
      schemas: { ...componentSchemas(), ...feedComponents() },
      responses: {
        MethodNotAllowed: {
          description: 'the API only reads: any method but GET, HEAD and OPTIONS is refused, its Allow header naming those',
          headers: { Allow: { schema: { type: 'string', const: 'GET, HEAD, OPTIONS' } } },
          content: { 'application/json': { schema: ref(ErrorSchema) } },
        },
      },
    },
  };
}

/** The document as served, and the tag that ties every answer's ETag to this version of the shapes. */
export function servedDocument(): { text: string; tag: string } {
  const text = `${JSON.stringify(openApiDocument(), null, 2)}\n`;
  return { text, tag: createHash('sha256').update(text).digest('hex').slice(0, 8) };
}
