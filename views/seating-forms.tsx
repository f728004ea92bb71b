/**
 * The fields of a seating, in the rulebook's words: the first dealer by the event's own method
 * (a draw for high card, or Asher's coin toss called by the team with the lower seed number),
 * the director's time limit, and the choices a director makes when creating an event. Shared by
 * the director's seating form and the table phone's start form, so both ask the same way.
 */
import { SEAT_NAMES } from '../engine/cards.ts';
import type { FormatOptions } from '../engine/formats.ts';
import { RULEBOOK_EVENTS } from '../engine/structures.ts';
import { RULEBOOK_DESCRIPTIONS } from './event-choices.tsx';

const SEATS = ['N', 'E', 'S', 'W'] as const;

/** A team of the match being seated, as the first-dealer fields name it. */
export interface SeatingTeam {
  teamId: string;
  name: string;
  seed: number | null;
}

/** What the first-dealer fields need: the event's method and the match's two teams (N–S first). */
export interface FirstDealerInfo {
  method: FormatOptions['firstDealer'];
  teams: [SeatingTeam, SeatingTeam];
  /** Set when games of the match were entered from paper and the rules carry the deal on: who deals first, after which game. */
  carried?: { dealer: (typeof SEATS)[number]; game: number };
}

/** The team that calls an Asher toss: the lower seed number (the first team when neither has one). */
export function tossCaller(teams: readonly [SeatingTeam, SeatingTeam]): SeatingTeam {
  const [a, b] = teams;
  return (a.seed ?? Infinity) <= (b.seed ?? Infinity) ? a : b;
}

const seedText = (team: SeatingTeam) => (team.seed !== null ? ` (seed ${team.seed})` : '');

/** The first dealer's fields by the event's method, in plain words. */
export function FirstDealerFields({ info }: { info: FirstDealerInfo }) {
  const [ns, ew] = info.teams;
  const seatTeam = { N: ns.name, S: ns.name, E: ew.name, W: ew.name };
  if (info.carried) {
    const { dealer, game } = info.carried;
    return (
      <p class="first-dealer hint" data-method="rotation">
        The deal keeps its rotation from game {game}: {SEAT_NAMES[dealer]} ({seatTeam[dealer]}) deals first.
      </p>
    );
  }
  if (info.method === 'coin-toss') {
    const caller = tossCaller(info.teams);
    return (
      <fieldset class="first-dealer" data-method="coin-toss">
        <legend>Coin toss for the first dealer</legend>
        <p class="hint">
          {caller.name}
          {seedText(caller)} has the lower seed number, so it calls heads or tails. The toss’s winner chooses who deals first.
        </p>
        <label>
          Called by{' '}
          <select name="caller">
            {info.teams.map((t) => (
              <option value={t.teamId} selected={t.teamId === caller.teamId}>
                {t.name}
                {seedText(t)}
              </option>
            ))}
          </select>
        </label>{' '}
        <label>
          Call{' '}
          <select name="call">
            <option value="heads">Heads</option>
            <option value="tails">Tails</option>
          </select>
        </label>{' '}
        <label>
          The coin came down{' '}
          <select name="result">
            <option value="heads">Heads</option>
            <option value="tails">Tails</option>
          </select>
        </label>{' '}
        <label>
          The winner chose to deal first{' '}
          <select name="choice">
            {SEATS.map((s) => (
              <option value={s}>
                {SEAT_NAMES[s]} ({seatTeam[s]})
              </option>
            ))}
          </select>
        </label>
      </fieldset>
    );
  }
  if (info.method === 'random') {
    return (
      <fieldset class="first-dealer" data-method="random">
        <legend>Random first dealer</legend>
        <label>
          Seed the dealer is drawn from (recorded) <input name="seed" maxlength={100} required />
        </label>
      </fieldset>
    );
  }
  return (
    <fieldset class="first-dealer" data-method="high-card">
      <legend>Draw for the first dealer</legend>
      <p class="hint">
        Each player draws a card; the highest card deals first. If players tie for the highest, they draw again: enter their cards in order (KH 9C).
      </p>
      <div class="draw-cards">
        {SEATS.map((s) => (
          <label>
            {SEAT_NAMES[s]} ({seatTeam[s]}) drew{' '}
            <input name={`card${s}`} class="narrow" maxlength={40} placeholder="AS" autocapitalize="characters" autocomplete="off" />
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** The director's time limit for a match being seated: the event's own filled in, `none` for no clock. */
export function ClockField({ minutes, per }: { minutes: number | null; per: FormatOptions['clockPer'] }) {
  return (
    <label class="clock-field">
      Time limit in minutes{per === 'game' ? ', on each game' : ', on the match'} (“none” for no clock){' '}
      <input name="clockMinutes" class="narrow" value={minutes === null ? 'none' : String(minutes)} maxlength={4} />
    </label>
  );
}

/** A dealer named without the draw: for a match entered after the fact, with the reason recorded. */
export function NamedDealerFields() {
  return (
    <details class="named-dealer">
      <summary>No draw at the table? Name the first dealer instead</summary>
      <p class="hint">Only for a match entered after the fact (the draw made on paper, say). The reason is recorded.</p>
      <label>
        First dealer{' '}
        <select name="firstDealer">
          <option value="">—</option>
          {SEATS.map((s) => (
            <option value={s}>{SEAT_NAMES[s]}</option>
          ))}
        </select>
      </label>{' '}
      <label>
        Why there was no draw <input name="namedBecause" maxlength={300} />
      </label>
    </details>
  );
}

/** The rulebook's own values a created event starts from, for the create form to show. */
export interface FormatDefaults {
  format: string;
  gamesToWin: number;
  clockMinutes: number | null;
  finalClockMinutes: number | null;
  clockPer: FormatOptions['clockPer'];
}

const clockWords = (minutes: number | null) => (minutes === null ? 'no clock' : `${minutes} min`);

/** One format's rulebook values in words: "best of 3 · 45 min on the match". */
export function formatDefaultWords(d: FormatDefaults): string {
  const games = d.gamesToWin === 1 ? 'one game a match' : `best of ${2 * d.gamesToWin - 1}`;
  const clock = d.clockMinutes === null ? 'no clock' : `${d.clockMinutes} min on ${d.clockPer === 'game' ? 'each game' : 'the match'}`;
  const final = d.finalClockMinutes !== null && d.finalClockMinutes !== d.clockMinutes ? ` (final: ${clockWords(d.finalClockMinutes)})` : '';
  return `${games} · ${clock}${final}`;
}

/** The create form's choices, each left empty for the rulebook's own value, which the list below them shows. */
export function CreateChoiceFields({
  defaults,
  typed = {},
  clocksInBuilder = false,
  finalInBuilder = false,
}: {
  defaults: FormatDefaults[];
  typed?: Record<string, string>;
  /** Whether the rules builder asks the match's clock (and the final's) beside the points a game is won at. */
  clocksInBuilder?: boolean;
  finalInBuilder?: boolean;
}) {
  return (
    <fieldset class="create-choices">
      <legend>Games, clocks and fees (leave empty to keep those of the event chosen)</legend>
      <label>
        Games to win a match (1 = one game, 2 = best of 3) <input name="gamesToWin" class="narrow" inputmode="numeric" maxlength={2} value={typed.gamesToWin} />
      </label>
      {/* The clocks are asked in the rules builder, beside the points a game is won at; the final's here when the builder has no row for it. */}
      {clocksInBuilder ? null : (
        <label>
          Minutes on a match’s clock (“none” for no clock) <input name="clockMinutes" class="narrow" maxlength={4} value={typed.clockMinutes} />
        </label>
      )}
      {finalInBuilder ? null : (
        <label>
          Minutes on the final’s clock <input name="finalClockMinutes" class="narrow" maxlength={4} value={typed.finalClockMinutes} />
        </label>
      )}
      <label>
        A clock times{' '}
        <select name="clockPer">
          <option value="">the rulebook’s choice</option>
          <option value="match" selected={typed.clockPer === 'match'}>
            the whole match
          </option>
          <option value="game" selected={typed.clockPer === 'game'}>
            each game
          </option>
        </select>
      </label>
      <fieldset class="entry-fee">
        <legend>Entry fee (leave empty for the rulebook’s own, or none)</legend>
        <label>
          Entry fee, $ <input name="entryFee" class="narrow" inputmode="numeric" maxlength={6} value={typed.entryFee} />
        </label>
        <label>
          Early price, $ <input name="earlyFee" class="narrow" inputmode="numeric" maxlength={6} value={typed.earlyFee} />
        </label>
        <label>
          for those registered by <input name="earlyUntil" type="date" value={typed.earlyUntil} />
        </label>
      </fieldset>
      <details class="advanced-rules" open={Boolean(typed.ruleOverrides)}>
        <summary>Advanced: rule overrides by option name</summary>
        <label>
          Rule overrides, one a line, such as <code>bagLimit = 6</code> or <code>promoted = 2♦ 2♠</code> (every option:{' '}
          <a href="/help/rule-options">the rule options</a>)
          <textarea name="ruleOverrides" rows={3}>
            {typed.ruleOverrides ?? ''}
          </textarea>
        </label>
      </details>
      <ul class="format-defaults">
        {defaults.map((d) => (
          <li data-format={d.format}>
            <strong>{RULEBOOK_EVENTS.find((r) => r.id === d.format)?.name ?? d.format}</strong>:{' '}
            {RULEBOOK_DESCRIPTIONS[d.format] ? <span class="format-description">{RULEBOOK_DESCRIPTIONS[d.format]} </span> : null}
            {formatDefaultWords(d)}
          </li>
        ))}
      </ul>
    </fieldset>
  );
}
