/**
 * The event feed's part of the OpenAPI document: `GET /api/events` (a page of events as JSON)
 * and `GET /api/events/stream` (the same events as server-sent events), and the shape of an
 * event as both send it, its payload by type from the very schemas the store checks every
 * append with (the event catalogue's, events/event-catalogue-schema.ts).
 */
import { z } from 'zod';
import { domainEvents } from '../../events/event-catalogue.ts';

const HASH = { type: 'string', pattern: '^[0-9a-f]{64}$' } as const;

/** The components the feed's paths refer to: an event, and each type's payload. */
export function feedComponents(): Record<string, unknown> {
  const components: Record<string, unknown> = {};
  const byType = domainEvents.definitions().map((definition) => {
    const { $schema: _dialect, ...payload } = z.toJSONSchema(definition.validate, { target: 'draft-2020-12', unrepresentable: 'any' }) as Record<
      string,
      unknown
    >;
    const id = `${definition.type}Payload`;
    components[id] = { ...payload, description: `The payload of a ${definition.type} event, at schema version ${definition.version}.` };
    return {
      if: { properties: { type: { const: definition.type } }, required: ['type'] },
      then: { properties: { schemaVersion: { const: definition.version }, payload: { $ref: `#/components/schemas/${id}` } } },
    };
  });
  components.FeedEvent = {
    description:
      'One ledger event as the feed sends it: its place in the ledger and the hash chain, its stream, and its payload, checked against the schema of its type (the event catalogue, also at /schemas/ledger-event.schema.json).',
    type: 'object',
    required: ['position', 'stream', 'version', 'type', 'schemaVersion', 'payload', 'meta', 'commandId', 'prevHash', 'hash'],
    properties: {
      position: { type: 'integer', minimum: 1, description: 'the ledger position, also the message’s `id`' },
      stream: { type: 'string' },
      version: { type: 'integer', minimum: 1 },
      type: { enum: domainEvents.definitions().map((d) => d.type) },
      schemaVersion: { type: 'integer', minimum: 1 },
      payload: { type: 'object' },
      meta: { type: 'object', required: ['at'], properties: { at: { type: 'string', format: 'date-time', description: 'when the event was appended' } } },
      commandId: { type: ['string', 'null'] },
      prevHash: HASH,
      hash: HASH,
    },
    allOf: byType,
  };
  return components;
}

const error = (description: string, headers: Record<string, unknown> = {}) => ({
  description,
  headers,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

const open = { 'Access-Control-Allow-Origin': { description: 'every site may read it', schema: { type: 'string', const: '*' } } };
const quota = {
  'RateLimit-Policy': {
    description: '`"feed-streams";q=N;qu="concurrent-requests"`: the streams one address may have open at once (IETF draft)',
    schema: { type: 'string' },
  },
  RateLimit: { description: '`"feed-streams";r=N`: how many more this address may open now', schema: { type: 'string' } },
};
const after = { name: 'after', in: 'query', required: false, schema: { type: 'integer', minimum: 0, maximum: 999_999_999_999_999 } };

/** The feed's paths. */
export function feedPaths(): Record<string, unknown> {
  return {
    '/api/events': {
      get: {
        operationId: 'listEvents',
        summary: 'A page of ledger events',
        description: 'The ledger’s events in position order after `after`, at most `limit`: the whole ledger, a page at a time.',
        parameters: [
          { ...after, description: 'the position to read after (0: from the first event)' },
          {
            name: 'limit',
            in: 'query',
            required: false,
            description: 'at most this many events (100 when not given)',
            schema: { type: 'integer', minimum: 1, maximum: 1000 },
          },
        ],
        responses: {
          '200': {
            description: 'the events',
            headers: open,
            content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/FeedEvent' } } } },
          },
          '400': error('a parameter is wrong: the sentence says which and why'),
        },
      },
    },
    '/api/events/stream': {
      get: {
        operationId: 'followEvents',
        summary: 'The live event feed',
        description:
          'Every event as it is appended, as server-sent events: each message’s `id` is the event’s ledger position and its `data` the event as JSON (a FeedEvent); lines starting with a colon are keep-alives. A client naming no position starts at the head; `after` or `Last-Event-ID` (which an EventSource sends again when it reconnects) resumes after a position with nothing missed or repeated. Any site may follow it.',
        parameters: [
          { ...after, description: 'resume after this position; without it (or Last-Event-ID), only events appended from now on' },
          {
            name: 'tournament',
            in: 'query',
            required: false,
            description: 'only this tournament’s events (its games’ cards, bids and rulings included)',
            schema: { type: 'string' },
          },
          {
            name: 'Last-Event-ID',
            in: 'header',
            required: false,
            description: 'the last position received: resume after it (wins over `after`)',
            schema: { type: 'string', pattern: '^\\d+$' },
          },
        ],
        responses: {
          '200': {
            description: 'the stream of events',
            headers: {
              ...open,
              ...quota,
              'Cross-Origin-Resource-Policy': { description: 'readable across origins', schema: { type: 'string', const: 'cross-origin' } },
            },
            content: {
              'text/event-stream': {
                schema: { type: 'string', description: 'server-sent events; each message’s data is a FeedEvent as JSON' },
                'x-message-data': { $ref: '#/components/schemas/FeedEvent' },
              },
            },
          },
          '400': error('`after` or Last-Event-ID is not a position'),
          '404': error('no tournament by that id to follow'),
          '429': error('too many streams from this address or in all', {
            'Retry-After': { description: 'seconds to wait before trying again', schema: { type: 'integer', minimum: 1 } },
            ...quota,
          }),
        },
      },
    },
  };
}
