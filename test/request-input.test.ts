import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { CommandError } from '../server/commands/command-error.ts';
import { field, fields, parseFields, readFields } from '../server/http/request-input.ts';

/** The sentence a refusal gives, or the fields read. */
function read<S extends z.ZodType>(schema: S, input: Record<string, unknown>): { ok: z.output<S> } | { refused: string; status: number } {
  try {
    return { ok: parseFields(input, schema) };
  } catch (error) {
    if (!(error instanceof CommandError)) throw error;
    return { refused: error.message, status: error.status };
  }
}

const Seat = fields({ seat: field.text({ max: 5 }) });
const Note = fields({ note: field.optionalText({ max: 10 }) });
const Round = fields({ round: field.whole({ min: 1, max: 9 }) });
const Hand = fields({ hand: field.optionalWhole({ min: 0, max: 51 }) });

describe('text fields', () => {
  it('are read trimmed, and a number as its digits', () => {
    expect(read(Seat, { seat: '  N ' })).toEqual({ ok: { seat: 'N' } });
    expect(read(Seat, { seat: 12 })).toEqual({ ok: { seat: '12' } });
  });

  it.each([
    ['absent', {}],
    ['null', { seat: null }],
    ['empty', { seat: '' }],
  ])('one that must be sent and is %s is missing', (_what, input) => {
    expect(read(Seat, input)).toEqual({ refused: 'seat is missing', status: 400 });
  });

  it.each([
    [['N'], 'seat must be text, not a list'],
    [{ seat: 'N' }, 'seat must be text, not object'],
    [true, 'seat must be text, not boolean'],
  ])('of the wrong kind (%j) say what they were', (value, sentence) => {
    expect(read(Seat, { seat: value })).toEqual({ refused: sentence, status: 400 });
  });

  it('too long say how long they may be, counted after trimming', () => {
    expect(read(Seat, { seat: 'North' })).toEqual({ ok: { seat: 'North' } });
    expect(read(Seat, { seat: '  North  ' })).toEqual({ ok: { seat: 'North' } });
    expect(read(Seat, { seat: 'Northy' })).toEqual({ refused: 'seat must have at most 5 characters', status: 400 });
    expect(read(fields({ name: field.text() }), { name: 'x'.repeat(501) })).toEqual({ refused: 'name must have at most 500 characters', status: 400 });
  });

  it('that may be left out are empty when they are, and still checked when sent', () => {
    for (const input of [{}, { note: null }, { note: '' }]) expect(read(Note, input)).toEqual({ ok: { note: '' } });
    expect(read(Note, { note: ' kept ' })).toEqual({ ok: { note: 'kept' } });
    expect(read(Note, { note: ['a'] })).toEqual({ refused: 'note must be text, not a list', status: 400 });
    expect(read(Note, { note: 'x'.repeat(11) })).toEqual({ refused: 'note must have at most 10 characters', status: 400 });
  });
});

describe('whole-number fields', () => {
  it('take a JSON number or a form’s digits', () => {
    expect(read(Round, { round: 3 })).toEqual({ ok: { round: 3 } });
    expect(read(Round, { round: ' 3 ' })).toEqual({ ok: { round: 3 } });
    expect(read(fields({ points: field.whole({ min: -2000, max: 2000 }) }), { points: '-30' })).toEqual({ ok: { points: -30 } });
  });

  it.each([{}, { round: null }, { round: '' }])('one that must be sent is missing when absent, null or empty (%j)', (input) => {
    expect(read(Round, input)).toEqual({ refused: 'round is missing', status: 400 });
  });

  it.each([
    ['x', 'round must be a whole number, not "x"'],
    ['1.5', 'round must be a whole number, not "1.5"'],
    [1.5, 'round must be a whole number, not 1.5'],
    ['1234567890', 'round must be a whole number, not "1234567890"'],
    [1e20, 'round must be a whole number, not 100000000000000000000'],
    [true, 'round must be a whole number, not true'],
    [[2], 'round must be a whole number, not [2]'],
    [{}, 'round must be a whole number, not {}'],
  ])('that are not whole (%j) say what was sent', (value, sentence) => {
    expect(read(Round, { round: value })).toEqual({ refused: sentence, status: 400 });
  });

  it('below the least or above the most say the bound and the number, from a form or JSON', () => {
    expect(read(Round, { round: 0 })).toEqual({ refused: 'round must be at least 1, not 0', status: 400 });
    expect(read(Round, { round: '0' })).toEqual({ refused: 'round must be at least 1, not 0', status: 400 });
    expect(read(Round, { round: 10 })).toEqual({ refused: 'round must be at most 9, not 10', status: 400 });
    expect(read(Round, { round: '10' })).toEqual({ refused: 'round must be at most 9, not 10', status: 400 });
  });

  it('that may be left out are null when they are, and still checked when sent', () => {
    for (const input of [{}, { hand: null }, { hand: '' }]) expect(read(Hand, input)).toEqual({ ok: { hand: null } });
    expect(read(Hand, { hand: '0' })).toEqual({ ok: { hand: 0 } });
    expect(read(Hand, { hand: 52 })).toEqual({ refused: 'hand must be at most 51, not 52', status: 400 });
    expect(read(Hand, { hand: 'two' })).toEqual({ refused: 'hand must be a whole number, not "two"', status: 400 });
  });
});

describe('a schema of several fields', () => {
  const Play = fields({ seat: field.text({ max: 5 }), card: field.text({ max: 5 }), hand: field.optionalWhole({ min: 1, max: 999 }) });

  it('reports the first problem in the order its keys are written', () => {
    expect(read(Play, { hand: 0 })).toEqual({ refused: 'seat is missing', status: 400 });
    expect(read(Play, { seat: 'N', hand: 0 })).toEqual({ refused: 'card is missing', status: 400 });
    expect(read(Play, { seat: 'N', card: 'AS', hand: 0 })).toEqual({ refused: 'hand must be at least 1, not 0', status: 400 });
  });

  it('lets through fields it does not name, and leaves them out of what it reads', () => {
    expect(read(Play, { seat: 'N', card: 'AS', _csrf: 'token', commandId: 'x' })).toEqual({ ok: { seat: 'N', card: 'AS', hand: null } });
  });

  it('words a route’s own check as the route wrote it', () => {
    const Dealer = fields({
      dealer: field
        .text({ max: 5 })
        .refine((d) => ['N', 'E', 'S', 'W'].includes(d), { error: (iss) => `the dealer must be N, E, S or W, not '${String(iss.input)}'` }),
    });
    expect(read(Dealer, { dealer: 'Q' })).toEqual({ refused: "the dealer must be N, E, S or W, not 'Q'", status: 400 });
    expect(read(Dealer, {})).toEqual({ refused: 'dealer is missing', status: 400 });
  });

  it('reads only fields the request sent, never an object’s built-ins', () => {
    const Odd = fields({ constructor: field.text(), toString: field.optionalText(), hasOwnProperty: field.optionalWhole() });
    expect(read(Odd, {})).toEqual({ refused: 'constructor is missing', status: 400 });
    expect(read(Odd, { constructor: 'c' })).toEqual({ ok: { constructor: 'c', toString: '', hasOwnProperty: null } });
    expect(read(Odd, { constructor: 'c', toString: ['x'] })).toEqual({ refused: 'toString must be text, not a list', status: 400 });
    // JSON.parse makes "__proto__" an own field: it is not a field of the schema, and what it holds is not read as fields.
    const polluted = JSON.parse('{"__proto__": {"seat": "N"}}') as Record<string, unknown>;
    expect(read(Seat, polluted)).toEqual({ refused: 'seat is missing', status: 400 });
  });
});

describe('readFields', () => {
  const Turn = fields({ seat: field.text({ max: 5 }), round: field.whole({ min: 1, max: 9 }) });
  const app = new Hono().post('/', async (c) => {
    try {
      return c.json(await readFields(c, Turn));
    } catch (error) {
      return c.json({ error: (error as Error).message }, 400);
    }
  });
  const post = async (body: string, type: string) => {
    const res = await app.request('/', { method: 'POST', body, headers: { 'content-type': type } });
    return { status: res.status, body: (await res.json()) as unknown };
  };

  it('reads a form and JSON alike', async () => {
    expect(await post('seat=+N+&round=3', 'application/x-www-form-urlencoded')).toEqual({ status: 200, body: { seat: 'N', round: 3 } });
    expect(await post('{"seat":" N ","round":3}', 'application/json')).toEqual({ status: 200, body: { seat: 'N', round: 3 } });
  });

  it('refuses a form and JSON with the same sentences', async () => {
    for (const [form, json, sentence] of [
      ['round=3', '{"round":3}', 'seat is missing'],
      ['seat=North%20West&round=3', '{"seat":"North West","round":3}', 'seat must have at most 5 characters'],
      ['seat=N&round=x', '{"seat":"N","round":"x"}', 'round must be a whole number, not "x"'],
      ['seat=N&round=0', '{"seat":"N","round":0}', 'round must be at least 1, not 0'],
      ['seat=N&round=12', '{"seat":"N","round":12}', 'round must be at most 9, not 12'],
      ['__proto__=N&constructor=1&round=2', '{"__proto__":"N","constructor":1,"round":2}', 'seat is missing'],
    ]) {
      expect(await post(form!, 'application/x-www-form-urlencoded')).toEqual({ status: 400, body: { error: sentence } });
      expect(await post(json!, 'application/json')).toEqual({ status: 400, body: { error: sentence } });
    }
    expect(await post('{"seat":["N"],"round":1}', 'application/json')).toEqual({ status: 400, body: { error: 'seat must be text, not a list' } });
  });
});
