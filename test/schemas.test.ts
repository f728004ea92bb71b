/**
 * The published JSON Schema of the event catalogue: current with the schemas the store checks
 * appends with, and, through an independent validator (ajv), taking every event the played
 * tournaments of every format record, and refusing what the store refuses.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FormatId } from '../engine/formats.ts';
import { domainEvents } from '../events/event-catalogue.ts';
import { publishedSchemas } from '../events/event-catalogue-schema.ts';
import type { LedgerLine } from '../events/store/ledger-file.ts';
import { exportLines } from '../events/store/sqlite/ledger-tools.ts';
import { createApp } from '../server/app/app.ts';
import { type AuditLedger, playTournament, tempLedger } from './fixtures/audit-ledger.ts';

const FILE = 'ledger-event.schema.json';
const published = readFileSync(join(import.meta.dirname, '..', 'docs', 'schemas', FILE), 'utf8');
const validate = new Ajv2020({ allErrors: false, strict: false }).compile(JSON.parse(published));

const ledgers: AuditLedger[] = [];
let lines: LedgerLine[] = [];
beforeAll(async () => {
  const formats: FormatId[] = ['blp-2024', 'unc-intramural', 'pitt-boss', 'asher-theatre'];
  for (const format of formats) {
    const l = tempLedger();
    ledgers.push(l);
    await playTournament(l.ledger, { format, teams: 4, renegeChance: 0.05, stopAt: 1500 });
    lines = lines.concat([...exportLines(l.ledger.database)].map((text) => JSON.parse(text) as LedgerLine));
  }
});
afterAll(() => {
  for (const l of ledgers) l.remove();
});

describe('the event catalogue schema', () => {
  it('is the file the schemas generate (npm run schemas writes it)', () => {
    expect(published).toBe(publishedSchemas(domainEvents)[FILE]);
  });

  it('takes every event of tournaments played in every bracket format, claims and rulings among them', () => {
    const types = new Set(lines.map((l) => l.type));
    for (const type of [
      'TournamentCreated',
      'TeamRegistered',
      'TournamentStarted',
      'MatchStarted',
      'GameStarted',
      'HandDealt',
      'BidMade',
      'CardPlayed',
      'RenegeClaimed',
      'RulingGiven',
    ]) {
      expect(types).toContain(type);
    }
    for (const line of lines) {
      const ok = validate(line);
      expect(ok, `position ${line.position} (${line.type}): ${JSON.stringify(validate.errors)}`).toBe(true);
    }
  });

  it('refuses what the store refuses: an unknown type, a seat that does not exist, a field the type does not have, a broken hash', () => {
    const card = lines.find((l) => l.type === 'CardPlayed')!;
    const bad = [
      { ...card, type: 'CardWithdrawn' },
      { ...card, payload: { ...(card.payload as object), seat: 'X' } },
      { ...card, payload: { ...(card.payload as object), note: 'extra' } },
      { ...card, hash: 'not a hash' },
    ];
    for (const line of bad) {
      expect(validate(line)).toBe(false);
      // The store itself agrees about the payloads.
      if (line.hash !== 'not a hash') expect(() => domainEvents.validate(line.type, line.payload)).toThrow();
    }
  });

  it('is served at /schemas/ for tools that fetch it', async () => {
    const { app } = createApp({ ledger: ledgers[0]!.ledger });
    const res = await app.request(`/schemas/${FILE}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/schema\+json/);
    expect(await res.text()).toBe(published);
    expect((await app.request('/schemas/nope.json')).status).toBe(404);
  });
});
