/**
 * A player is a person across events: a name registered again in any event, team or
 * progressive, in any case, spacing or punctuation, is the same person with the same `playerId`,
 * which the read API gives in every event; two entries of one event are never one person by
 * name. A director's merge and split are recorded events that move every answer, and each is
 * undone exactly by the opposite one; a rebuild gives the same people.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { personOfEntry, playerKey } from '../events/player-identity.ts';
import { setSignUp, signUp } from '../server/commands/registration-commands.ts';
import { createTournament } from '../server/commands/tournament-commands.ts';
import { rebuildModels } from '../events/store/sqlite/ledger-tools.ts';
import { progressiveEvent, teamEvent } from './fixtures/circuit-season.ts';
import { documentChecked } from './fixtures/api-document.ts';
import { type Fixture, copyOf, makeFixture, send } from './routes-fixture.ts';
import { eventsOf, expectRebuildEqualsLive } from './tournament-ledger.ts';

let fixture: Fixture;
beforeAll(async () => {
  fixture = await makeFixture();
});
afterAll(() => fixture?.close());

type Copy = ReturnType<typeof copyOf>;

/** Two team events and a progressive evening sharing players under differently written names. */
function season(copy: Copy): void {
  const { ledger } = copy;
  teamEvent(ledger, 'week1', 'Thursday week 1', [
    { name: 'Aces', players: ['Ana Lopez', 'Ben Ortiz'] },
    { name: 'Kings', players: ['Cy Diaz', 'Dee Park'] },
  ]);
  teamEvent(ledger, 'week2', 'Thursday week 2', [
    { name: 'Aces High', players: ['  ana   LOPEZ. ', 'Cy Diaz'] },
    { name: 'Queens', players: ["Eve O'Neil", 'Ben-Ortiz'] },
  ]);
  progressiveEvent(ledger, 'eve', 'Friday evening', ['ANA LOPEZ', 'EVE ONEIL', 'Fay Wu', 'Gus Roy']);
}

const AT = '2026-03-01T10:00:00.000Z';

const director = (copy: Copy, method: string, path: string, json?: unknown) =>
  send(copy.app, fixture.clients.director, method, path, json === undefined ? {} : { json });

describe('a player across events', () => {
  it('compares names without case, spacing or punctuation', () => {
    expect(playerKey('  ana   LOPEZ. ')).toBe(playerKey('Ana Lopez'));
    expect(playerKey("O'Neil, Eve")).toBe(playerKey('ONeil Eve'));
    expect(playerKey('Ana Lopez')).not.toBe(playerKey('Ana Lopes'));
  });

  it('gives a name the ledger knows the same playerId in every event, team or progressive, and a new name a new one', () => {
    const copy = copyOf(fixture);
    season(copy);
    const circuit = copy.ledger.models.circuit;
    const id = (t: string, entry: string) => personOfEntry(circuit, t, entry)?.playerId;
    expect(id('week1', 'team1:1')).toBe('ana-lopez');
    expect(id('week2', 'team1:1')).toBe('ana-lopez');
    expect(id('eve', 'p1')).toBe('ana-lopez');
    expect(id('week2', 'team1:2')).toBe(id('week1', 'team2:1'));
    expect(id('week2', 'team2:2')).toBe(id('week1', 'team1:2'));
    expect(id('week2', 'team2:1')).toBe(id('eve', 'p2'));
    expect(new Set(['week1 team1:1', 'week1 team1:2', 'week1 team2:1', 'week1 team2:2', 'eve p3', 'eve p4'].map((k) => circuit.entries[k])).size).toBe(6);
    // The person keeps the name first registered.
    expect(circuit.people['ana-lopez']!.name).toBe('Ana Lopez');
    copy.ledger.close();
  });

  it('matches a returning player who signs up on the public sign-up, registered or waitlisted', () => {
    const copy = copyOf(fixture);
    season(copy);
    const { ledger } = copy;
    ledger.execute(createTournament(ledger.models, { tournamentId: 'open', name: 'Open night', format: 'unc-intramural' }));
    ledger.execute(setSignUp(ledger.models, { tournamentId: 'open', open: true, cap: 2, closes: null, at: AT }));
    const signUpAs = (teamId: string, name: string, players: string[]) =>
      ledger.execute(signUp(ledger.models, { tournamentId: 'open', teamId, name, players, at: AT, codeSeed: 'a'.repeat(16) }));
    signUpAs('t1', 'Returners', ['ana lopez', 'New Face']);
    signUpAs('t2', 'Others', ['Gus Roy', 'Hal Kim']);
    // Past the cap: waitlisted, and still the same person.
    signUpAs('t3', 'Latecomers', ['BEN ORTIZ', 'Ivy Moss']);
    expect(eventsOf(ledger, 'TeamWaitlisted')).toHaveLength(1);
    const circuit = ledger.models.circuit;
    expect(personOfEntry(circuit, 'open', 't1:1')!.playerId).toBe('ana-lopez');
    expect(personOfEntry(circuit, 'open', 't1:2')!.playerId).toBe('new-face');
    expect(personOfEntry(circuit, 'open', 't2:1')!.playerId).toBe(personOfEntry(circuit, 'eve', 'p4')!.playerId);
    expect(personOfEntry(circuit, 'open', 't3:1')!.playerId).toBe('ben-ortiz');
    copy.ledger.close();
  });

  it('takes the same name twice in one event as two people', () => {
    const copy = copyOf(fixture);
    teamEvent(copy.ledger, 'twins', 'Twins night', [
      { name: 'North', players: ['Sam Lee', 'Al Fox'] },
      { name: 'South', players: ['sam lee', 'Bo Fox'] },
    ]);
    const circuit = copy.ledger.models.circuit;
    expect(personOfEntry(circuit, 'twins', 'team1:1')!.playerId).toBe('sam-lee');
    expect(personOfEntry(circuit, 'twins', 'team2:1')!.playerId).toBe('sam-lee-2');
    copy.ledger.close();
  });

  it('names each player by that playerId in the read API’s entrants of every event', async () => {
    const copy = copyOf(fixture);
    season(copy);
    const { api } = await documentChecked(copy.app);
    const week2 = await api('/api/v1/tournaments/week2/entrants', '/api/v1/tournaments/{tournamentId}/entrants');
    expect(week2.res.status).toBe(200);
    const entrants = (week2.body as { entrants: { players: { playerId: string; name: string }[] }[] }).entrants;
    expect(entrants[0]!.players.map((p) => p.playerId)).toEqual(['ana-lopez', 'cy-diaz']);
    const tournament = await api('/api/v1/tournaments/week2', '/api/v1/tournaments/{tournamentId}');
    const teams = (tournament.body as { entrants: { teams: { roster: { playerId: string }[] }[] } }).entrants.teams;
    expect(teams[1]!.roster.map((p) => p.playerId)).toEqual(['eve-oneil', 'ben-ortiz']);
    const eve = await api('/api/v1/tournaments/eve/entrants', '/api/v1/tournaments/{tournamentId}/entrants');
    expect(JSON.stringify(eve.body)).toContain('"playerId":"ana-lopez"');
    copy.ledger.close();
  });
});

describe('merging and splitting records', () => {
  it('a merge moves every entry and answer to one person, and taking it back restores the two exactly', async () => {
    const copy = copyOf(fixture);
    season(copy);
    const { ledger } = copy;
    const { api } = await documentChecked(copy.app);
    // Fay Wu of Friday's evening registers as Fay Wu-Roy on Thursday: a second record of her.
    teamEvent(ledger, 'week3', 'Thursday week 3', [
      { name: 'Spades', players: ['Fay Wu-Roy', 'Gus Roy'] },
      { name: 'Hearts', players: ['Ana Lopez', 'Ben Ortiz'] },
    ]);
    const fay = personOfEntry(ledger.models.circuit, 'eve', 'p3')!.playerId;
    const fayRoy = personOfEntry(ledger.models.circuit, 'week3', 'team1:1')!.playerId;
    expect(fay).not.toBe(fayRoy);
    const before = structuredClone(ledger.models.circuit);

    const merged = await director(copy, 'POST', `/director/players/${fayRoy}/merge`, { into: fay });
    expect(merged.status, await merged.clone().text()).toBe(200);
    expect(eventsOf(ledger, 'PlayersMerged')).toEqual([{ playerId: fayRoy, into: fay, entries: [{ tournamentId: 'week3', entry: 'team1:1' }] }]);
    expect(personOfEntry(ledger.models.circuit, 'week3', 'team1:1')!.playerId).toBe(fay);
    const player = await api(`/api/v1/players/${fay}`, '/api/v1/players/{playerId}');
    expect((player.body as { events: { tournamentId: string }[] }).events.map((e) => e.tournamentId)).toEqual(['eve', 'week3']);
    // The merged id leads to the person.
    const old = await api(`/api/v1/players/${fayRoy}`, '/api/v1/players/{playerId}');
    expect((old.body as { playerId: string }).playerId).toBe(fay);
    const entrants = await api('/api/v1/tournaments/week3/entrants', '/api/v1/tournaments/{tournamentId}/entrants');
    expect(JSON.stringify(entrants.body)).toContain(`"playerId":"${fay}"`);
    // A name the merged record answered to now leads to the person too.
    teamEvent(ledger, 'week4', 'Thursday week 4', [{ name: 'Clubs', players: ['fay wu roy', 'Hal Kim'] }]);
    expect(personOfEntry(ledger.models.circuit, 'week4', 'team1:1')!.playerId).toBe(fay);

    const undone = await director(copy, 'POST', `/director/players/${fayRoy}/unmerge`, {});
    expect(undone.status, await undone.clone().text()).toBe(200);
    const split = eventsOf(ledger, 'PlayerSplit');
    expect(split).toEqual([{ playerId: fay, into: fayRoy, name: 'Fay Wu-Roy', entries: [{ tournamentId: 'week3', entry: 'team1:1' }] }]);
    const after = structuredClone(ledger.models.circuit);
    // Everything as before the merge, but what week 4 registered since.
    for (const key of Object.keys(after.entries)) if (key.startsWith('week4 ')) delete after.entries[key];
    after.people[fay]!.entries = after.people[fay]!.entries.filter((k) => !k.startsWith('week4 '));
    for (const id of Object.keys(after.people)) if (!before.people[id]) delete after.people[id];
    for (const [key, id] of Object.entries(after.byKey)) if (!before.people[id]) delete after.byKey[key];
    expect(after).toEqual(before);
    expect(rebuildModels(ledger.database, ledger.store)).toEqual(ledger.models);
    expectRebuildEqualsLive(ledger);
    ledger.close();
  });

  it('a split makes the events named another person’s, and a merge back undoes it', async () => {
    const copy = copyOf(fixture);
    season(copy);
    const { ledger } = copy;
    // The "Ana Lopez" of Friday's evening was another Ana Lopez.
    const res = await director(copy, 'POST', '/director/players/ana-lopez/split', { tournaments: ['eve'], name: 'Ana Lopez' });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(eventsOf(ledger, 'PlayerSplit')).toEqual([
      { playerId: 'ana-lopez', into: 'ana-lopez-2', name: 'Ana Lopez', entries: [{ tournamentId: 'eve', entry: 'p1' }] },
    ]);
    expect(personOfEntry(ledger.models.circuit, 'eve', 'p1')!.playerId).toBe('ana-lopez-2');
    expect(personOfEntry(ledger.models.circuit, 'week2', 'team1:1')!.playerId).toBe('ana-lopez');
    // The name still leads to the first Ana: the desk names the other one by id.
    teamEvent(ledger, 'week5', 'Thursday week 5', [{ name: 'Diamonds', players: ['Ana Lopez', 'Ivy Moss'] }]);
    expect(personOfEntry(ledger.models.circuit, 'week5', 'team1:1')!.playerId).toBe('ana-lopez');

    // The desk offers both Anas as a name is typed, the second by her id, and registers the one chosen.
    teamEvent(ledger, 'week7', 'Thursday week 7', []);
    const desk = await (await send(copy.app, fixture.clients.director, 'GET', '/director/tournaments/week7')).text();
    expect(desk).toContain('<option value="Ana Lopez"></option>');
    expect(desk).toContain('<option value="#ana-lopez-2" label="Ana Lopez (#ana-lopez-2)"></option>');
    const chosen = await director(copy, 'POST', '/director/tournaments/week7/teams', { name: 'Hearts', player1: '#ana-lopez-2', player2: 'Kit Cole' });
    expect(chosen.status, await chosen.clone().text()).toBe(200);
    const hearts = ledger.models.tournaments.week7!.model.teams.find((t) => t.name === 'Hearts')!;
    expect(hearts.players).toEqual(['Ana Lopez', 'Kit Cole']);
    expect(personOfEntry(ledger.models.circuit, 'week7', `${hearts.teamId}:1`)!.playerId).toBe('ana-lopez-2');
    const nobody = await director(copy, 'POST', '/director/tournaments/week7/teams', { name: 'Clubs', player1: '#nobody-here', player2: 'Kit Cole' });
    expect(nobody.status).toBe(404);
    expect(((await nobody.json()) as { error: string }).error).toBe("player 1 names the player '#nobody-here', and there is no player of that id");

    // A paste names the other Ana by her id, and the copy of Friday's evening brings her, not the first Ana.
    teamEvent(ledger, 'week6', 'Thursday week 6', []);
    const head = ledger.models.position;
    const unknown = await director(copy, 'POST', '/director/tournaments/week6/teams/bulk', { lines: 'Spades, #nobody-here, Zed Zee', confirm: 'yes' });
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { error: string }).error).toContain("names the player '#nobody-here', and there is no player of that id");
    expect(ledger.models.position).toBe(head);
    const pasted = await director(copy, 'POST', '/director/tournaments/week6/teams/bulk', { lines: 'Spades, #ana-lopez-2, Zed Zee', confirm: 'yes' });
    expect(pasted.status, await pasted.clone().text()).toBe(200);
    const spades = ledger.models.tournaments.week6!.model.teams[0]!;
    expect(spades.players).toEqual(['Ana Lopez', 'Zed Zee']);
    expect(personOfEntry(ledger.models.circuit, 'week6', `${spades.teamId}:1`)!.playerId).toBe('ana-lopez-2');
    expect(eventsOf<{ people?: unknown }>(ledger, 'TeamRegistered').at(-1)!.people).toEqual(['ana-lopez-2', null]);
    progressiveEvent(ledger, 'eve2', 'Friday evening again', []);
    const copied = await director(copy, 'POST', '/director/tournaments/eve2/entrants/copy', { from: 'eve', confirm: 'yes' });
    expect(copied.status, await copied.clone().text()).toBe(200);
    const ana = ledger.models.tournaments.eve2!.model.teams.find((t) => t.name === 'Ana Lopez')!;
    expect(personOfEntry(ledger.models.circuit, 'eve2', ana.teamId)!.playerId).toBe('ana-lopez-2');

    const back = await director(copy, 'POST', '/director/players/ana-lopez-2/merge', { into: 'ana-lopez' });
    expect(back.status, await back.clone().text()).toBe(200);
    expect(personOfEntry(ledger.models.circuit, 'eve', 'p1')!.playerId).toBe('ana-lopez');
    expect(personOfEntry(ledger.models.circuit, 'eve2', ana.teamId)!.playerId).toBe('ana-lopez');
    expectRebuildEqualsLive(ledger);
    ledger.close();
  });

  it('refuses what cannot be one person or two, recording nothing', async () => {
    const copy = copyOf(fixture);
    season(copy);
    const { ledger } = copy;
    const head = ledger.models.position;
    const twoInOne = await director(copy, 'POST', '/director/players/ana-lopez/merge', { into: 'cy-diaz' });
    expect(twoInOne.status).toBe(409);
    expect(((await twoInOne.json()) as { error: string }).error).toBe(
      'Ana Lopez and Cy Diaz both played in Thursday week 1, Thursday week 2; one person cannot have two places in one event, so they are two people',
    );
    const nobody = await director(copy, 'POST', '/director/players/nobody/merge', { into: 'cy-diaz' });
    expect(nobody.status).toBe(404);
    const everything = await director(copy, 'POST', '/director/players/cy-diaz/split', { tournaments: ['week1', 'week2'] });
    expect(everything.status).toBe(400);
    expect(((await everything.json()) as { error: string }).error).toContain('a split leaves at least one event');
    const notThere = await director(copy, 'POST', '/director/players/cy-diaz/split', { tournaments: ['eve'] });
    expect(((await notThere.json()) as { error: string }).error).toBe('Cy Diaz did not play in Friday evening');
    const publicAsk = await send(copy.app, null, 'POST', '/director/players/cy-diaz/split', { json: { tournaments: ['week1'] } });
    expect(publicAsk.status).toBe(401);
    expect(ledger.models.position).toBe(head);
    ledger.close();
  });
});
