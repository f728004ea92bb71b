/**
 * Requests generated from the served OpenAPI document alone, as a property-based API tester
 * makes them: every path of /api/v1 with ids that exist and ids that do not, each documented
 * query parameter given a value its schema allows, one it does not, or none, unknown parameters
 * beside them, and If-None-Match now and then. The property: no answer is a server error, every
 * status is one the document lists for the operation, every body matches its schema there, and
 * the answer is the one the same request without the unknown parameter and the ETag gets (a 304
 * only where that is a 200).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { createApp } from '../server/app/app.ts';
import { createSeries, joinSeries } from '../server/commands/circuit-commands.ts';
import { PROGRESSIVE_DEMO, createDemo } from '../server/serve/serve.ts';
import { driveTables } from '../server/serve/table-driver.ts';
import { type AuditLedger, playTournament, tempLedger } from './fixtures/audit-ledger.ts';
import { pointerSegment } from './fixtures/api-document.ts';

type Parameter = {
  name: string;
  in: 'path' | 'query' | 'header';
  schema: { type?: string; enum?: string[]; minimum?: number; maximum?: number; anyOf?: unknown[] };
};
type Operation = { parameters: Parameter[]; responses: Record<string, { content?: Record<string, unknown> }> };

let fixture: AuditLedger;
let app: ReturnType<typeof createApp>['app'];
let document: { paths: Record<string, { get: Operation }> };
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);

beforeAll(async () => {
  fixture = tempLedger();
  await playTournament(fixture.ledger, { format: 'pitt-boss', teams: 4, seed: 'property', stopAt: 1200 });
  // A series the event counts toward, so the series resource has one to answer.
  fixture.ledger.execute(createSeries(fixture.ledger.models, { seriesId: 'league', name: 'League', points: { '1': 10, played: 1 } }));
  fixture.ledger.execute(joinSeries(fixture.ledger.models, { tournamentId: 't1', seriesId: 'league' }));
  await createDemo(fixture.ledger, 'progressive');
  for (let i = 0; i < 20; i++) await driveTables(fixture.ledger, { tournamentId: PROGRESSIVE_DEMO, seed: 'property-evening' });
  app = createApp({ ledger: fixture.ledger }).app;
  document = (await (await app.request('/api/v1/openapi.json')).json()) as typeof document;
  ajv.addSchema(document, 'openapi.json');
});
afterAll(() => fixture.remove());

/** Values for a path parameter: ids the ledger holds, and ones it does not. */
function pathValues(name: string): fc.Arbitrary<string> {
  const models = fixture.ledger.models;
  const known: Record<string, string[]> = {
    tournamentId: Object.keys(models.tournaments),
    gameId: Object.keys(models.games).slice(0, 8),
    matchId: Object.values(models.tournaments).flatMap((t) => t.model.matches.slice(0, 4).map((m) => m.matchId)),
    seriesId: Object.keys(models.circuit.series),
    playerId: Object.keys(models.circuit.people).slice(0, 8),
  };
  return fc.oneof(
    { arbitrary: fc.constantFrom(...(known[name] ?? ['x'])), weight: 6 },
    { arbitrary: fc.constantFrom('nope', 'constructor', '__proto__', 'W1-1', 'R1-T1'), weight: 1 },
    { arbitrary: fc.string({ minLength: 1, maxLength: 12 }), weight: 1 },
  );
}

/** Values for a query parameter: what its schema allows, near its bounds, and what it does not. */
function queryValues(parameter: Parameter): fc.Arbitrary<string> {
  const head = fixture.ledger.models.position;
  const schema = parameter.schema;
  const wrong = fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('-1', '1.5', '', '%', '1e3'));
  // Mostly values the schema allows, so that requests with several parameters are often answered.
  const mostly = (allowed: fc.Arbitrary<string>) => fc.oneof({ arbitrary: allowed, weight: 5 }, { arbitrary: wrong, weight: 1 });
  if (parameter.name === 'asOf') return mostly(fc.constantFrom('0', '1', '30', String(head), String(head + 1), '999999999999999'));
  if (schema.enum) return mostly(fc.constantFrom(...schema.enum));
  if (schema.type === 'integer' || schema.type === 'number') {
    const low = schema.minimum ?? 0;
    const high = Math.min(schema.maximum ?? 10_000, 10_000);
    return mostly(fc.oneof(fc.integer({ min: low, max: high }).map(String), fc.constantFrom(String(low - 1), String(high + 1))));
  }
  if (parameter.name === 'since') return mostly(fc.constantFrom('2026-01-01', '2026-01-01T00:20:00Z', '2030-01-01T00:00:00+02:00'));
  if (parameter.name === 'teamId') return mostly(fc.constantFrom('team1', 'team3', 'p1'));
  return wrong;
}

/** A request to one operation of the document, as a URL template and the URL made from it. */
function requests(): fc.Arbitrary<{ template: string; url: string; plain: string; headers: Record<string, string> }> {
  const operations = Object.entries(document.paths).filter(([path]) => path.startsWith('/api/v1/'));
  return fc.constantFrom(...operations).chain(([template, { get }]) => {
    const inPath = get.parameters.filter((p) => p.in === 'path');
    const inQuery = get.parameters.filter((p) => p.in === 'query');
    return fc
      .record({
        path: fc.tuple(...inPath.map((p) => pathValues(p.name))),
        query: fc.tuple(...inQuery.map((p) => fc.option(queryValues(p), { nil: undefined, freq: 2 }))),
        unknown: fc.option(fc.tuple(fc.constantFrom('_', 'utm_source', 'callback', 'ASOF'), fc.string({ maxLength: 6 })), { nil: undefined }),
        held: fc.option(fc.constantFrom('*', '"0-x"', 'W/"1-x"', 'nonsense'), { nil: undefined }),
      })
      .map(({ path, query, unknown, held }) => {
        let url = template;
        inPath.forEach((p, i) => (url = url.replace(`{${p.name}}`, encodeURIComponent(path[i] as string))));
        const search = new URLSearchParams();
        inQuery.forEach((p, i) => {
          if (query[i] !== undefined) search.append(p.name, query[i] as string);
        });
        const plainText = search.toString();
        if (unknown) search.append(unknown[0], unknown[1]);
        const text = search.toString();
        return {
          template,
          url: text ? `${url}?${text}` : url,
          plain: plainText ? `${url}?${plainText}` : url,
          headers: held ? { 'if-none-match': held } : ({} as Record<string, string>),
        };
      });
  });
}

describe('requests generated from the document', () => {
  it('get no server error and no answer outside the document', async () => {
    const seen = new Set<string>();
    await fc.assert(
      fc.asyncProperty(requests(), async ({ template, url, plain, headers }) => {
        const res = await app.request(url, { headers });
        // A parameter the operation does not take changes nothing, and a 304 spares only an answer there is.
        const without = await app.request(plain);
        expect(res.status === 304 ? 200 : res.status, `${url} against ${plain}`).toBe(without.status);
        await without.body?.cancel();
        const operation = document.paths[template]!.get;
        expect(res.status, url).toBeLessThan(500);
        expect(Object.keys(operation.responses), `${url} answered ${res.status}`).toContain(String(res.status));
        seen.add(`${template} ${res.status}`);
        if (res.status === 304) {
          expect(await res.text()).toBe('');
          return;
        }
        const body = await res.json();
        const validate = ajv.getSchema(`openapi.json#/paths/${pointerSegment(template)}/get/responses/${res.status}/content/application~1json/schema`)!;
        expect(validate(body) ? [] : validate.errors, `${url} answered ${res.status} as the document says`).toEqual([]);
      }),
      { numRuns: 400, seed: 45 },
    );
    // The runs reached every operation's answer and its refusals.
    for (const template of Object.keys(document.paths).filter((path) => path.startsWith('/api/v1/'))) {
      expect(seen, template).toContain(`${template} 200`);
      expect(seen, template).toContain(`${template} 400`);
    }
    expect([...seen].some((s) => s.endsWith(' 404'))).toBe(true);
  });
});
