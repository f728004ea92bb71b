/**
 * The event catalogue as JSON Schema (draft 2020-12): one line of `spades export` (or of
 * `/api/ledger.ndjson`), whose payload must match the schema of its type at the current schema
 * version. Generated from the very schemas the store checks appends with, so a tool in any
 * language can check a ledger, or an event it means to send, before it arrives.
 */
import { z } from 'zod';
import { recordJsonSchema } from '../engine/record-schema.ts';
import type { EventRegistry } from './event-registry.ts';

export const CATALOGUE_SCHEMA_ID = 'https://spades-ledger.example/schemas/ledger-event.schema.json';

const HASH = { type: 'string', pattern: '^[0-9a-f]{64}$' } as const;

/** The JSON Schema of an exported ledger line under `registry`'s event types. */
export function eventCatalogueSchema(registry: EventRegistry): Record<string, unknown> {
  const types = registry.definitions().map((definition) => {
    const payload = z.toJSONSchema(definition.validate, { target: 'draft-2020-12', unrepresentable: 'any' }) as Record<string, unknown>;
    delete payload.$schema;
    return {
      if: { properties: { type: { const: definition.type } }, required: ['type'] },
      // A row written at an older version of its type holds the payload that version wrote, brought
      // up to date as it is read (event-registry.ts); only the current version's payload is described.
      then:
        definition.version === 1
          ? { properties: { schema_version: { const: 1 }, payload } }
          : {
              properties: { schema_version: { type: 'integer', minimum: 1, maximum: definition.version } },
              if: { properties: { schema_version: { const: definition.version } } },
              then: { properties: { payload } },
            },
    };
  });
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: CATALOGUE_SCHEMA_ID,
    title: 'A Spades ledger event, as one line of spades export',
    description:
      'Each line of the NDJSON export between its first and last is one event: its place in the hash chain, its stream, and a payload checked against the schema of its type. Hashes are SHA-256 over the previous hash and the canonical bytes of the event (docs/ledger.md). The first line is the export\'s header and the last its trailer, {"header" (or "trailer"): "spades-ledger/1", "events": N, "head": {"position": N, "hash": "…"}}, with no position: they say how many events the export holds and its head, so a copy cut short is told from a whole one.',
    type: 'object',
    additionalProperties: false,
    required: ['position', 'stream', 'version', 'type', 'schema_version', 'payload', 'meta', 'command_id', 'prev_hash', 'hash'],
    properties: {
      position: { type: 'integer', minimum: 1 },
      stream: { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9._:-]{0,199}$' },
      version: { type: 'integer', minimum: 1 },
      type: { enum: registry.definitions().map((d) => d.type) },
      schema_version: { type: 'integer', minimum: 1 },
      payload: { type: 'object' },
      meta: { type: 'object', required: ['at'], properties: { at: { type: 'string', format: 'date-time' } } },
      command_id: { type: ['string', 'null'] },
      prev_hash: HASH,
      hash: HASH,
    },
    allOf: types,
  };
}

/**
 * The JSON Schema files published in docs/schemas/ and served at /schemas/, by file name, as their
 * text: a ledger line, and a `spades-game/1` game record (engine/record-schema.ts).
 */
export function publishedSchemas(registry: EventRegistry): Record<string, string> {
  const text = (schema: Record<string, unknown>) => `${JSON.stringify(schema, null, 2)}\n`;
  return { 'ledger-event.schema.json': text(eventCatalogueSchema(registry)), 'spades-game-1.schema.json': text(recordJsonSchema()) };
}
