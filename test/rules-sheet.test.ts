/**
 * The rules sheet (`/tournaments/:id/rules`): each rulebook's event says what its rulebook says,
 * written from the options its games are scored with, and an event with the house's own rules
 * says each of them and marks it as the house's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Fixture, copyOf, makeFixture, send } from './routes-fixture.ts';
import { eventsOf } from './tournament-ledger.ts';

let fixture: Fixture;
beforeAll(async () => {
  fixture = await makeFixture();
});
afterAll(() => fixture?.close());

type App = ReturnType<typeof copyOf>['app'];

interface SheetLine {
  part: string;
  key: string;
  house: boolean;
  text: string;
}

/** The sheet's lines as the page shows them, with the part each is under. */
async function sheetOf(app: App, tournamentId: string): Promise<SheetLine[]> {
  const res = await app.request(`/tournaments/${tournamentId}/rules`);
  expect(res.status).toBe(200);
  const html = await res.text();
  const lines: SheetLine[] = [];
  for (const section of html.split('<section class="rules-part">').slice(1)) {
    const part = /<h2>([^<]*)<\/h2>/.exec(section)![1]!;
    for (const m of section.matchAll(/<li data-rule="([^"]+)"( class="house-rule")?>(?:<strong class="house-mark">House rule:<\/strong> )?([^<]*)<\/li>/g)) {
      lines.push({ part, key: m[1]!, house: m[2] !== undefined, text: m[3]! });
    }
  }
  return lines;
}

const texts = (lines: SheetLine[], part?: string) => lines.filter((l) => part === undefined || l.part === part).map((l) => l.text);

async function create(app: App, body: Record<string, string>): Promise<void> {
  const res = await send(app, fixture.clients.director, 'POST', '/director/tournaments', { json: body });
  expect(res.status, await res.clone().text()).toBe(200);
}

describe('the rules sheet of each rulebook’s event', () => {
  it('says what the rulebooks say, round by round where they differ, with no house rule', async () => {
    const { app, ledger } = copyOf(fixture);
    for (const format of ['blp-2024', 'unc-intramural', 'pitt-boss', 'asher-theatre', 'tournament-spades'])
      await create(app, { tournamentId: format, name: `${format} day`, format });

    const blp = await sheetOf(app, 'blp-2024');
    expect(blp.filter((l) => l.house)).toEqual([]);
    // "Round 1: Goal: to be the first team to reach 200 points. Rank of Cards: A (high), K, Q, J, 10, 9, 8, 7, 6, 5, 4, 3, 2. No jokers."
    expect(texts(blp, 'Round 1')).toEqual(
      expect.arrayContaining([
        'A game is won at 200 points; if both teams reach 200 on the same hand, the higher score wins, and a tie plays one more hand.',
        'The deck is the standard 52 cards, without jokers.',
        'Trumps, high to low: A♠ … 2♠.',
      ]),
    );
    // "Round 2 ( or more as needed): Goal: … 350 points. Rank of Cards: Big Joker, Little Joker, A, K, … 2. … the 2 of hearts and the 2 of clubs are removed"
    expect(texts(blp, 'Round 2 and later, and the losers’ bracket')).toEqual(
      expect.arrayContaining([
        'A game is won at 350 points; if both teams reach 350 on the same hand, the higher score wins, and a tie plays one more hand.',
        'The deck is 52 cards: the Big and Little Jokers are in, the 2♥ and 2♣ are taken out.',
        'Trumps, high to low: Big Joker, Little Joker, A♠ … 2♠.',
      ]),
    );
    // "Final Round: Goal: … 500 points. … Rank of Cards: Big Joker, Little Joker, deuce of Diamonds, deuce of Spades, A, K, …"
    expect(texts(blp, 'The final')).toEqual(
      expect.arrayContaining([
        'A game is won at 500 points; if both teams reach 500 on the same hand, the higher score wins, and a tie plays one more hand.',
        'Trumps, high to low: Big Joker, Little Joker, 2♦, 2♠, A♠ … 3♠. The 2♦ is a trump, a spade for every purpose.',
      ]),
    );
    expect(texts(blp, 'Every game')).toEqual(
      expect.arrayContaining([
        // "The non-dealing team places their bid first, and then the dealer's team. … the minimum bid per team is 4 (board), maximum is 13."
        'The non-dealing team bids first, then the dealer’s team; each player bids once.',
        'A team’s two bids together must come to 4 to 13 tricks.',
        // "No Blind Bids. No Nil bids."
        'Nil may not be bid.',
        'Blind bids are not allowed.',
        // "Each time a team scores 10 bags (overtricks) (cumulative through a game), that team receives a 100-point penalty"
        'Each overtrick scores 1 point and is counted as a bag; every 10th bag costs 100 points and the count starts again, the surplus carrying over.',
        // "If during normal play a team is set 3 times, the game is over. The team experiencing 3 sets is the losing team."
        'A team set for the 3rd time in a game loses it.',
        // "If you play off suit, and get caught, your team loses 3 books to the other team."
        'An upheld renege takes 3 tricks from the reneging team and gives them to the other team (all it has, if fewer), where they count toward the bid and as bags.',
        // "The first dealer is chosen by a draw for high card, and thereafter the turn to deal proceeds clockwise."
        'The first dealer is chosen by a draw for high card; the deal then passes clockwise.',
      ]),
    );

    const unc = await sheetOf(app, 'unc-intramural');
    expect(unc.filter((l) => l.house)).toEqual([]);
    expect(texts(unc, 'Every game')).toEqual(
      expect.arrayContaining([
        // "SPECIAL TRUMP CARDS FROM HIGHEST TO LOWEST: BIG JOKER (SPADE), LITTLE JOKER(SPADE), 2 OF SPADES, ACES OF SPADES."
        'Trumps, high to low: Big Joker, Little Joker, 2♠, A♠ … 3♠.',
        // "When playing with the Big Joker and Little Joker, please remove the 2 of Hearts and the 2 of Diamonds."
        'The deck is 52 cards: the Big and Little Jokers are in, the 2♥ and 2♦ are taken out.',
        // "If one player bids nil, their partner must still bid a minimum of four tricks. The only exception is if both players on a team bid nil."
        'A team’s two bids together must come to 4 to 13 tricks; the partner of a nil bidder bids at least 4 alone, unless both bid nil.',
        // "the team will forfeit 3 tricks to the opposing team. The team receiving the tricks will be awarded 30 points. The offending team will need to make their original bid"
        'An upheld renege takes 3 tricks from the reneging team, which must still make its bid with what is left; the other team does not count them, and the other team scores 30 points.',
      ]),
    );
    // "Games will be played to 300 with a 30 minute time limit." / "A team can accumulate 6 sandbags, but on the 6th Sandbag the team will be penalized 60 points."
    expect(texts(unc, 'Every game before the final')).toEqual(
      expect.arrayContaining([
        'A game is won at 300 points, or by the team ahead when 30 minutes are called (the hand in progress is played out); if both teams reach 300 on the same hand, the higher score wins, and a tie plays one more hand.',
        'Each overtrick scores 1 point and is counted as a bag; every 6th bag costs 60 points and the count starts again, the surplus carrying over.',
        // "Nil: If a player who bids nil takes no tricks then his/her team will receive 60 points (in games played to 300)"
        'A nil bidder must take no trick: made, the team scores 60 points; failed, it loses 60 points. The partner’s bid is the team’s bid, and with both partners nil each nil is scored on its own.',
        // "A team must be down by a minimum of 100 points to make a blind nil bid"; "will receive 120 points (in games played to 300)"
        'Blind nil (bid before looking at one’s cards) scores 120 points made and loses 120 points failed; only a team 100 or more points behind may bid it.',
        // "10 for 200 — A team that bids 10 or more tricks will receive 120 points (in games played to 300)"
        'A team that bids 10 or more and makes it scores 120 points, or 10 a trick bid when that is more, overtricks as usual; set, it loses 10 points a trick bid.',
      ]),
    );
    // "The Championship Match will be played to 500 points with a 45 minute time limit"; "During the championship game (played to 500), the sandbag limit is ten."
    expect(texts(unc, 'The final')).toEqual(
      expect.arrayContaining([
        'A game is won at 500 points, or by the team ahead when 45 minutes are called (the hand in progress is played out); if both teams reach 500 on the same hand, the higher score wins, and a tie plays one more hand.',
        'Each overtrick scores 1 point and is counted as a bag; every 10th bag costs 100 points and the count starts again, the surplus carrying over.',
      ]),
    );

    const pitt = texts(await sheetOf(app, 'pitt-boss'));
    expect(pitt).toEqual(
      expect.arrayContaining([
        // "There will be a 45-minute time limit per round. The team that wins two out of three matches per round advances. … the team ahead in points at the "stop" time will be declared the winner."
        'A match goes to the first team to win 2 games (best of 3), within 45 minutes: when time is called, the hand in progress is played out and the team ahead in the game being played wins the match (a tie plays one more hand).',
        // "The card ranking for this tournament will be Big Joker, Little Joker, Ace of Spades, and so on (natural cards)."
        'Trumps, high to low: Big Joker, Little Joker, A♠ … 2♠.',
        // "the red deuces will be removed from the deck to make a total card count of 52."
        'The deck is 52 cards: the Big and Little Jokers are in, the 2♥ and 2♦ are taken out.',
        // "First 7 - Any team to win the first 7 books of any hand receives 100 bonus points"
        'A team that wins the first 7 tricks of a hand gets 100 bonus points, whatever its bid.',
        // "10-FOR-200 - … will receive 200 points. The team loses 100 points if bid is unsuccessful."
        'A team that bids 10 or more and makes it scores 200 points, or 10 a trick bid when that is more, overtricks as usual; set, it loses 100 points.',
        // "Any team down 100+ points can place a (minimum 6) blind bid. … Successfully winning the blind bid doubles the point total for that hand."
        'A team may bid blind (both partners, declared before the cards are dealt) only when it is 100 or more points behind, for at least 6 tricks; made, the bid’s score is doubled; set, it loses 10 points a trick bid.',
        // "100 points if met, -100 points if took more."
        'A nil bidder must take no trick: made, the team scores 100 points; failed, it loses 100 points. The partner’s bid is the team’s bid, and with both partners nil each nil is scored on its own.',
        // "tricks won by that player don't count toward making his/her partner's bid, but they do count as bags for the partnership."
        'A nil bidder’s tricks never count toward the partner’s bid; each counts as one of the team’s overtricks.',
        // "You may not flip a card during the deal for a spades check. This will result in a misdeal and your turn to deal will be forfeited."
        // "Misdeal - Any deal resulting in the incorrect number of cards for each player ... The hand is voided and re-dealt if this occurs."
        'A misdeal may be called for: a card flipped during the deal; a player not dealt 13 cards; an uneven deal (the dealer not getting the last card). After a card flipped in the deal the dealer loses the turn to deal and the deal passes to the next player; after any other misdeal the same dealer deals again; a misdeal scores nothing.',
        // "The losing team of the renege challenge is typically penalized 3 books."
        'A renege claim costs the side that loses it 3 tricks, given to the other team: the reneging team’s when upheld, the claiming team’s when denied.',
      ]),
    );

    const asher = texts(await sheetOf(app, 'asher-theatre'));
    expect(asher).toEqual(
      expect.arrayContaining([
        // "Each challenge game is played to 350 points or the 1-hour time limit."
        'A game is won at 350 points, or by the team ahead when 60 minutes are called (the hand in progress is played out); if both teams reach 350 on the same hand, the higher score wins, and a tie plays one more hand.',
        // "The deuce of spades is simply a deuce and is considered the lowest spade."
        'Trumps, high to low: Big Joker, Little Joker, A♠ … 2♠.',
        // "BLINDS … is offered only is down over 100 points."
        'A team may bid blind (both partners, before seeing their cards) only when it is more than 100 points behind; made, the bid’s score is doubled; set, it loses 10 points a trick bid.',
        // "A team will only get credit for what they bid, and successfully make." / "NO SANDBAGGING"
        'Overtricks score nothing and are not counted as bags: a team is credited only with what it bid.',
        // "they are awarded 100 Bonus Points or a total of 200 Points."
        'A team that bids 10 or more and makes it scores 10 points a trick bid plus 100 points bonus, overtricks as usual; set, it loses 10 points a trick bid.',
        // "A BID OF 6-4 = BOOKS MADE. THE HAND DOES NOT HAVE TO BE PLAYED."
        'When one team bids exactly 6 and the other exactly 4, the hand is not played: the teams score 60 and 40 points, with no bags.',
        // "A BOSTON … will result in the team obtaining the Boston, a winning game"
        'A team that takes all 13 tricks (a Boston) wins the game at once.',
        // "If a team is SET twice in one game, the game is over, and that team loses the game."
        'A team set for the 2nd time in a game loses it.',
        // "the reneging team must forfeit 3 books to the opposing team. If the reneging team does not have 3 books … they must pay the difference in the next hand."
        'An upheld renege credits the other team with 3 tricks; the reneging team gives up as many as it has and owes the rest out of its next hand.',
        // "A coin toss will determine who will deal first. The lowest seeded(number) team will call heads or tails. The winner of the coin toss will choose the dealer."
        'A coin toss decides the first dealer: the team with the lower seed number calls it, and the winner chooses the dealer; the deal then passes clockwise.',
        // "The deal will keep this rotation throughout the entire challenge."
        'The deal keeps its rotation across the games of a match: the next game’s first dealer is the player left of the last game’s last dealer.',
      ]),
    );

    const progressive = texts(await sheetOf(app, 'tournament-spades'));
    expect(progressive).toEqual(
      expect.arrayContaining([
        // "Four hands are played in each round."
        'A game is 4 hands; the higher score wins, and a tie plays one more hand.',
        // "A standard pack of 52 cards is used."
        'The deck is the standard 52 cards, without jokers.',
        // "in theory any number from 0 to 13 is allowed"
        'A team’s two bids together come to 0 to 13 tricks; a bid of 0 is a number of tricks, not a nil.',
        // "The bidding begins with the player to dealer's left and continues clockwise around the table."
        'Bidding starts with the player on the dealer’s left and goes clockwise; each player bids once.',
        // "The first dealer is chosen at random"
        'The first dealer is drawn at random; the deal then passes clockwise.',
      ]),
    );
    ledger.close();
  });
});

/** The flyer's house rules: jokers and 2♦ 2♠ high, 300 points or 30 minutes, sandbags counted not scored, blind only when down 100, a renege costs 3 books. */
export const FLYER_LINES = [
  'target = 300',
  'removed = 2H 2C',
  'promoted = 2♦ 2♠',
  'overtrickPoints = false',
  'bagLimit = null',
  'blindBid = deficit 100, strict false, minimumTeam 4',
  // "an upheld renege costs 3 books": 3 is Pitt Boss's count already; where they go is the house's.
  'renegePenalty = transfer',
].join('\n');

describe('an event with the house’s own rules', () => {
  it('says each override and marks it as the house’s', async () => {
    const { app, ledger } = copyOf(fixture);
    await create(app, { tournamentId: 'flyer', name: 'Flyer night', format: 'pitt-boss', gamesToWin: '1', clockMinutes: '30', ruleOverrides: FLYER_LINES });
    const sheet = await sheetOf(app, 'flyer');
    expect(sheet.filter((l) => l.house).map((l) => l.text)).toEqual([
      'A match is one game.',
      'A game is won at 300 points, or by the team ahead when 30 minutes are called (the hand in progress is played out); if both teams reach 300 on the same hand, the higher score wins, and a tie plays one more hand.',
      'The deck is 52 cards: the Big and Little Jokers are in, the 2♥ and 2♣ are taken out.',
      'Trumps, high to low: Big Joker, Little Joker, 2♦, 2♠, A♠ … 3♠. The 2♦ is a trump, a spade for every purpose.',
      'A team may bid blind (both partners, declared before the cards are dealt) only when it is 100 or more points behind; made, the bid’s score is doubled; set, it loses 10 points a trick bid.',
      'Overtricks score nothing; they are counted as bags, with no penalty.',
      'An upheld renege takes 3 tricks from the reneging team and gives them to the other team (all it has, if fewer), where they count toward the bid and as bags.',
    ]);
    // What the flyer leaves as the rulebook's stays so, unmarked.
    expect(sheet.find((l) => l.key === 'first-seven')).toMatchObject({
      house: false,
      text: 'A team that wins the first 7 tricks of a hand gets 100 bonus points, whatever its bid.',
    });
    const page = await (await app.request('/tournaments/flyer/rules')).text();
    expect(page).toContain('<strong class="house-mark">House rule</strong> marks the 7 rules that differ from the Pitt Boss rulebook.');
    // The sheet is written from what the engine scores with.
    expect(ledger.models.tournaments.flyer!.format.rules).toEqual({
      preset: 'pitt-boss',
      target: 300,
      removed: ['2H', '2C'],
      promoted: ['2D', '2S'],
      overtrickPoints: false,
      bagLimit: null,
      blindBid: { deficit: 100, strict: false, minimumTeam: 4 },
      renegePenalty: 'transfer',
    });
    ledger.close();
  });

  it('is one tap from the event’s page, its bracket, the table’s phone and the code sheet, and a turn of the screen before the start', async () => {
    const { app, ledger } = copyOf(fixture);
    const link = 'href="/tournaments/t1/rules"';
    expect(await (await app.request('/tournaments/t1')).text()).toContain(`<a ${link}>Rules in force</a>`);
    const bracket = await (await app.request('/tournaments/t1/bracket')).text();
    expect(bracket).toContain(`<a ${link}>Rules in force</a>`);
    // UNC intramural is single elimination: its one bracket is not a winners' bracket.
    expect(bracket).toContain('>Single elimination</h3>');
    const phone = await (await send(app, fixture.clients.scorekeeper, 'GET', '/entry/tables/t1/1')).text();
    expect(phone).toContain(`<a class="entry-rules" ${link}>Rules</a>`);
    const codes = await (await send(app, fixture.clients.director, 'GET', '/director/tournaments/t1/codes')).text();
    expect(codes).toMatch(/<p class="table-card-rules">Rules: http:\/\/[^<]+\/tournaments\/t1\/rules<\/p>/);
    expect(codes).toMatch(/<a href="http:\/\/[^"]+\/tournaments\/t1\/rules">The rules in force<\/a>/);

    // Before the start the screen's live-tables turn shows the rules; once tables play, the tables.
    const waiting = await (await app.request('/tournaments/t2/screen')).text();
    expect(waiting).toContain('<section class="panel panel--tables" aria-label="Rules in force">');
    expect(waiting).toMatch(
      /<section id="live-tables" class="live-tables screen-rules" data-shows="rules"[^>]*><h2 id="live-tables-title">Rules in force<\/h2>/,
    );
    expect(waiting).toContain('<li data-shows="rules">Rules</li>');
    expect(waiting).toContain('Every rule: /tournaments/t2/rules');
    const playing = await (await app.request('/tournaments/t1/screen')).text();
    expect(playing).not.toContain('screen-rules');
    expect(playing).toContain('<li data-shows="tables">Live tables</li>');
    ledger.close();
  });

  it('serves the rule options’ help page, from docs/rule-options.md, linked from the create form', async () => {
    const { app, ledger } = copyOf(fixture);
    const help = await (await app.request('/help/rule-options')).text();
    expect(help).toContain('<h1>Rule options</h1>');
    expect(help).toMatch(/<tr><td><code>promoted<\/code><\/td><td>Trumps above the ace of spades<\/td><td>Non-natural trumps[^<]*<\/td>/);
    expect(help).toContain('<td>2D 2S</td>');
    const form = await (await send(app, fixture.clients.director, 'GET', '/director')).text();
    expect(form).toContain('href="/help/rule-options"');
    ledger.close();
  });

  it('is built on the create form with a control per rule, previewed live, into the same event as the override lines', async () => {
    const { app, ledger } = copyOf(fixture);
    const director = fixture.clients.director;
    // The builder of the format chosen: every field as it starts, from the rulebook's values.
    const builder = await (await send(app, director, 'POST', '/director/rules-builder', { form: { format: 'pitt-boss' } })).text();
    expect(builder).toMatch(/^<fieldset id="rules-builder"/);
    expect(builder).toContain('<p class="rule-help">Non-natural trumps ranked just below the jokers and above A♠, high to low (e.g. 2D, 2S).</p>');
    const fields: Record<string, string> = {};
    // Every field as the form sends it: a box not ticked sends nothing.
    for (const m of builder.matchAll(/<input [^>]*?name="([^"]+)"[^>]*value="([^"]*)"[^>]*>/g))
      if (!/type="checkbox"/.test(m[0]) || / checked/.test(m[0])) fields[m[1]!] = m[2]!;
    for (const m of builder.matchAll(/<select name="([^"]+)"[^>]*>([\s\S]*?)<\/select>/g)) fields[m[1]!] = /<option value="([^"]+)" selected/.exec(m[2]!)![1]!;
    expect(fields).toMatchObject({
      rulesFormat: 'pitt-boss',
      'rule.target': '350',
      'rule.removed': '2H 2D',
      'rule.promoted': 'none',
      'rule.blindBid': 'yes',
      'rule.blindBid.deficit': '100',
      'rule.blindBid.strict': 'false',
      'rule.blindBid.minimumTeam': '6',
      'rule.renegePenalty': 'pitt-boss',
      'rule.overtricks': 'point-and-bag',
    });
    // One control a rule, overtricks' two options as one choice; a few values each in a field of its own.
    expect(Object.keys(fields).filter((k) => /^rule\.[A-Za-z]+$/.test(k))).toHaveLength(29);
    // The flyer's rules, set with the builder's controls.
    const flyer = {
      ...fields,
      'rule.target': '300',
      // "Game to 300 or 30 minutes", asked together.
      clockMinutes: '30',
      'rule.removed': '2♥ 2♣',
      'rule.promoted': '2D 2S',
      'rule.overtricks': 'bag',
      'rule.bagLimit': 'none',
      'rule.blindBid.minimumTeam': '4',
      'rule.renegePenalty': 'transfer',
    };
    const preview = await (await send(app, director, 'POST', '/director/rules-preview', { form: { format: 'pitt-boss', gamesToWin: '1', ...flyer } })).text();
    expect(preview).toMatch(/^<section id="rules-preview"/);
    expect(preview).toContain('<strong class="house-mark">House rule:</strong> Overtricks score nothing; they are counted as bags, with no penalty.');
    expect(preview).toContain('Trumps, high to low: Big Joker, Little Joker, 2♦, 2♠, A♠ … 3♠.');
    const wrong = await (
      await send(app, director, 'POST', '/director/rules-preview', { form: { format: 'pitt-boss', ...fields, 'rule.bagLimit': 'lots' } })
    ).text();
    expect(wrong).toContain('rules: Bags before a penalty must be a whole number 1 or more, or none (no bag penalty), got &quot;lots&quot;');

    const built = await send(app, director, 'POST', '/director/tournaments', {
      form: { tournamentId: 'built', name: 'Flyer night', format: 'pitt-boss', gamesToWin: '1', ...flyer },
    });
    expect(built.status, await built.clone().text()).toBe(303);
    await create(app, { tournamentId: 'lines', name: 'Flyer night', format: 'pitt-boss', gamesToWin: '1', clockMinutes: '30', ruleOverrides: FLYER_LINES });
    const created = (id: string) => eventsOf<{ tournamentId: string; options: unknown }>(ledger, 'TournamentCreated').find((e) => e.tournamentId === id)!;
    expect(created('built').options).toEqual(created('lines').options);
    expect(texts(await sheetOf(app, 'built'))).toEqual(texts(await sheetOf(app, 'lines')));

    // Values shown for one format are not taken for another's; a rule set twice differently is refused.
    const other = await send(app, director, 'POST', '/director/tournaments', {
      json: { tournamentId: 'other', name: 'Other', format: 'asher-theatre', ...flyer },
    });
    expect([other.status, ((await other.json()) as { error: string }).error]).toEqual([
      400,
      'the rules builder shows the rules of another choice than Asher Theatre; show the rules of Asher Theatre before changing them',
    ]);
    const twice = await send(app, director, 'POST', '/director/tournaments', {
      json: { tournamentId: 'twice', name: 'Twice', format: 'pitt-boss', ...flyer, ruleOverrides: 'target = 250' },
    });
    expect([twice.status, ((await twice.json()) as { error: string }).error]).toEqual([
      400,
      'Points to win a game is set to 300 in the rules builder and to 250 in the override lines; set it in one place',
    ]);
    ledger.close();
  });

  it('is a 404 page for an event the ledger does not hold', async () => {
    const { app, ledger } = copyOf(fixture);
    const res = await app.request('/tournaments/nowhere/rules');
    expect(res.status).toBe(404);
    expect(await res.text()).toContain('Tournament nowhere does not exist.');
    ledger.close();
  });
});
