/**
 * "Register the same entrants as …": the preview names every team (or player) of the earlier
 * event and records nothing; the confirmation records them all in one append, by the bulk
 * paste's rules, leaving out those already registered; a problem with any of them records none.
 * The copied players are the same people as before.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { personOfEntry } from '../events/player-identity.ts';
import { createTournament, registerTeam, withdrawTeam } from '../server/commands/tournament-commands.ts';
import { progressiveEvent, teamEvent } from './fixtures/circuit-season.ts';
import { type Fixture, copyOf, makeFixture, send } from './routes-fixture.ts';

let fixture: Fixture;
beforeAll(async () => {
  fixture = await makeFixture();
});
afterAll(() => fixture?.close());

type Copy = ReturnType<typeof copyOf>;
const copyRequest = (copy: Copy, tournamentId: string, body: Record<string, string>, json = true) =>
  send(copy.app, fixture.clients.director, 'POST', `/director/tournaments/${tournamentId}/entrants/copy`, json ? { json: body } : { form: body });

function lastWeek(copy: Copy): void {
  teamEvent(copy.ledger, 'wk1', 'Week 1', [
    { name: 'Aces', players: ['Ana Lopez', 'Ben Ortiz'] },
    { name: 'Kings', players: ['Cy Diaz', 'Dee Park'] },
    { name: 'Queens', players: ['Eve Moss', 'Fay Wu'] },
    { name: 'Jacks', players: ['Gus Roy', 'Hal Kim'] },
  ]);
  copy.ledger.execute(withdrawTeam(copy.ledger.models, { tournamentId: 'wk1', teamId: 'team4' }));
  copy.ledger.execute(createTournament(copy.ledger.models, { tournamentId: 'wk2', name: 'Week 2', format: 'unc-intramural' }));
}

describe('copying an earlier event’s entrants', () => {
  it('previews without recording, then records every entrant in one append, leaving out those already registered', async () => {
    const copy = copyOf(fixture);
    lastWeek(copy);
    const { ledger } = copy;
    // Kings registered already this week.
    ledger.execute(registerTeam(ledger.models, { tournamentId: 'wk2', teamId: 'kings', name: 'Kings', players: ['Cy Diaz', 'Dee Park'] }));
    const head = ledger.models.position;
    const preview = await copyRequest(copy, 'wk2', { from: 'wk1' });
    expect(preview.status).toBe(200);
    const shown = (await preview.json()) as { entrants: { name: string; players: string[] }[]; already: { name: string }[]; recorded: number };
    expect(shown.entrants.map((e) => [e.name, e.players])).toEqual([
      ['Aces', ['Ana Lopez', 'Ben Ortiz']],
      ['Queens', ['Eve Moss', 'Fay Wu']],
    ]);
    expect(shown.already.map((e) => e.name)).toEqual(['Kings']);
    expect(shown.recorded).toBe(0);
    expect(ledger.models.position).toBe(head);

    // The desk's form shows the same preview as a page, with a confirmation, and records nothing.
    const page = await copyRequest(copy, 'wk2', { from: 'wk1' }, false);
    const html = await page.text();
    expect(html).toContain('Register the entrants of Week 1 in Week 2?');
    expect(html).toContain('Register these 2');
    expect(ledger.models.position).toBe(head);

    const confirmed = await copyRequest(copy, 'wk2', { from: 'wk1', confirm: 'yes' });
    expect(confirmed.status).toBe(200);
    expect(((await confirmed.json()) as { recorded: number }).recorded).toBe(2);
    const appended = ledger.store.readAll().filter((e) => e.position > head);
    expect(appended.map((e) => e.type)).toEqual(['TeamRegistered', 'TeamRegistered']);
    expect(new Set(appended.map((e) => e.hash)).size).toBe(2);
    const teams = ledger.models.tournaments.wk2!.model.teams.map((t) => t.name);
    expect(teams).toEqual(['Kings', 'Aces', 'Queens']);
    // The same people as last week.
    const aces = ledger.models.tournaments.wk2!.model.teams.find((t) => t.name === 'Aces')!;
    expect(personOfEntry(ledger.models.circuit, 'wk2', `${aces.teamId}:1`)!.playerId).toBe(personOfEntry(ledger.models.circuit, 'wk1', 'team1:1')!.playerId);

    // Sent again, it adds nobody.
    const again = await copyRequest(copy, 'wk2', { from: 'wk1', confirm: 'yes' });
    expect(((await again.json()) as { recorded: number }).recorded).toBe(0);
    expect(ledger.models.tournaments.wk2!.model.teams).toHaveLength(3);
    copy.ledger.close();
  });

  it('records none of them while one has a problem, naming it', async () => {
    const copy = copyOf(fixture);
    lastWeek(copy);
    const { ledger } = copy;
    // "Aces" is taken this week by other players: the paste's rules refuse the whole copy.
    ledger.execute(registerTeam(ledger.models, { tournamentId: 'wk2', teamId: 'aces', name: 'Aces', players: ['Ivy Lane', 'Jo Reyes'] }));
    const head = ledger.models.position;
    const res = await copyRequest(copy, 'wk2', { from: 'wk1', confirm: 'yes' });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe(
      "1 problem copying the entrants of Week 1, so nothing was recorded: Aces: 'Aces' is already registered, with Ivy Lane & Jo Reyes",
    );
    expect(ledger.models.position).toBe(head);
    const missing = await copyRequest(copy, 'wk2', { from: 'nowhere' });
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: string }).error).toBe("there is no event 'nowhere' to copy entrants from");
    const self = await copyRequest(copy, 'wk2', { from: 'wk2' });
    expect(self.status).toBe(400);
    expect(ledger.models.position).toBe(head);
    copy.ledger.close();
  });

  it('brings a team event’s players to a progressive evening one by one, and refuses the other way', async () => {
    const copy = copyOf(fixture);
    lastWeek(copy);
    progressiveEvent(copy.ledger, 'pe', 'Friday evening', ['Ana Lopez']);
    const res = await copyRequest(copy, 'pe', { from: 'wk1', confirm: 'yes' });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(copy.ledger.models.tournaments.pe!.model.teams.map((t) => t.name)).toEqual(['Ana Lopez', 'Ben Ortiz', 'Cy Diaz', 'Dee Park', 'Eve Moss', 'Fay Wu']);
    const back = await copyRequest(copy, 'wk2', { from: 'pe' });
    expect(back.status).toBe(400);
    expect(((await back.json()) as { error: string }).error).toBe(
      'Friday evening registered players one by one; Week 2 is played by teams of two, so paste its teams instead',
    );
    copy.ledger.close();
  });
});
