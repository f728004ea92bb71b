/**
 * `npm run schemas`: writes the published JSON Schemas (docs/schemas/) from the schemas the
 * ledger checks with: a ledger line (ledger-event.schema.json) and a `spades-game/1` game record
 * (spades-game-1.schema.json, from engine/record-schema.ts). A test fails when a committed file
 * is not what this writes.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { domainEvents } from '../events/event-catalogue.ts';
import { publishedSchemas } from '../events/event-catalogue-schema.ts';

const folder = join(import.meta.dirname, '..', 'docs', 'schemas');
mkdirSync(folder, { recursive: true });
for (const [file, text] of Object.entries(publishedSchemas(domainEvents))) {
  writeFileSync(join(folder, file), text);
  process.stdout.write(`wrote docs/schemas/${file}\n`);
}
