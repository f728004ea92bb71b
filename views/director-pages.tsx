/**
 * The director's pages: set up a tournament, register and check in teams, seed and draw, seat
 * matches at tables, and print the table cards with their join codes and QR links.
 */
import type { WaitingParts } from '../events/ruling-wait.ts';
import { WaitingLine } from './ruling-wait.tsx';
import type { MatchModel, TeamRow } from '../events/read-models.ts';
import { Notice, PostForm } from './entry-forms.tsx';
import { ConfirmPartnerDraw, type PartnerDrawPreview, PartnersPanel, type PartnersPanelProps } from './partner-draw.tsx';
import { Layout } from './layout.tsx';
import { SessionList, type SessionListProps } from './login.tsx';
import { ClockField, CreateChoiceFields, type FirstDealerInfo, FirstDealerFields, type FormatDefaults, NamedDealerFields } from './seating-forms.tsx';
import { ProgressiveDirector, type ProgressiveDirectorProps } from './progressive-panels.tsx';
import { StructureDescriptions, StructureSelect } from './event-choices.tsx';
import { STATUS_NAMES } from './tournament-home.tsx';
import { RULES_BUILDER_ID, RulesBuilder, type RulesBuilderProps } from './rules-builder.tsx';
import { ConfirmStart, ConfirmWithdraw, type PendingWithdrawal, StartForm, type StartPreview } from './director-start.tsx';
import { SignUpCard } from './sign-up-page.tsx';
import { QrCode } from './qr-code.tsx';
import {
  BulkForm,
  type BulkPreviewProps,
  BulkPreviewPanel,
  CapChoice,
  type CapChoiceProps,
  RegistrationPanel,
  type RegistrationPanelProps,
} from './registration-panel.tsx';
import { playerLink } from '../events/addresses.ts';
import { readyTables } from '../events/table-assignment.ts';
import { CircuitPanel, type CircuitPanelProps, KNOWN_PLAYERS_ID } from './circuit-desk.tsx';

export const DIRECTOR_PANEL_ID = 'director-panel';

export interface DirectorHomeProps {
  csrf: string;
  name: string;
  /** Each tournament, and whether it is the one the venue's /screen shows. */
  tournaments: { tournamentId: string; name: string; status: string; teams: number; onScreen: boolean }[];
  /** Each format's rulebook values, shown under the create form's choices. */
  formatDefaults?: FormatDefaults[];
  error?: string | null;
  done?: string | null;
  /** The director's own sessions, each of which can be ended here. */
  sessions?: SessionListProps;
  /** The rules builder for the format first offered, or as a refused form left it. */
  builder?: RulesBuilderProps;
  /** A refused create form's fields as typed, shown again. */
  typed?: Record<string, string>;
  /** The series an event may count toward from its creation, by name. */
  series?: { seriesId: string; name: string }[];
}

export function DirectorHome(props: DirectorHomeProps) {
  const typed = props.typed ?? {};
  return (
    <section id={DIRECTOR_PANEL_ID} class="director" aria-labelledby="director-title">
      <h1 id="director-title">Director</h1>
      <p class="signed-in">Signed in as {props.name}.</p>
      <Notice error={props.error ?? null} done={props.done ?? null} />
      <p>
        <a href="/director/players">Series and players</a>: a season’s standings, and each player’s record across events.
      </p>
      <h2>Tournaments</h2>
      {props.tournaments.length === 0 ? (
        <p class="empty">None yet.</p>
      ) : (
        <ul>
          {props.tournaments.map((t) => (
            <li>
              <a href={`/director/tournaments/${encodeURIComponent(t.tournamentId)}`}>{t.name}</a> ·{' '}
              {STATUS_NAMES[t.status as keyof typeof STATUS_NAMES] ?? t.status} · {t.teams} entrants
              {t.onScreen ? <strong> · on /screen</strong> : null}
            </li>
          ))}
        </ul>
      )}
      <h2>Set up a tournament</h2>
      <PostForm action="/director/tournaments" target={DIRECTOR_PANEL_ID} csrf={props.csrf} class="stack-form">
        <label>
          Id (letters, digits, dashes) <input name="tournamentId" required pattern="[A-Za-z0-9][A-Za-z0-9\-]{0,59}" value={typed.tournamentId} />
        </label>
        <label>
          Name <input name="name" required maxlength={200} value={typed.name} />
        </label>
        {/* Choosing what the event is shows its rules in the builder. */}
        <StructureSelect chosen={typed.format ?? props.builder?.format ?? ''} builderId={RULES_BUILDER_ID} />
        <StructureDescriptions />
        <label>
          Entrants the event is made for (teams, or players for progressive tables; leave empty to say nothing){' '}
          <input name="teams" type="number" min={2} max={1024} class="narrow" value={typed.teams} />
        </label>
        {props.formatDefaults ? (
          <CreateChoiceFields
            defaults={props.formatDefaults}
            typed={typed}
            clocksInBuilder={Boolean(props.builder?.clocks)}
            finalInBuilder={Boolean(props.builder?.clocks)}
          />
        ) : null}
        {props.builder ? <RulesBuilder {...props.builder} /> : null}
        <label>
          Rounds of progressive tables (leave empty for 4) or of a Swiss event (for 3), or times through a round robin (1 or 2){' '}
          <input name="rounds" type="number" min={1} max={99} class="narrow" value={typed.rounds} />
        </label>
        <fieldset class="pools-choices">
          <legend>Pools into a playoff (leave empty for 2 pools, the top 2 of each going on to single elimination)</legend>
          <label>
            Number of pools <input name="pools" type="number" min={2} max={16} class="narrow" value={typed.pools} />
          </label>
          <label>
            Teams going on from each pool <input name="advance" type="number" min={1} max={16} class="narrow" value={typed.advance} />
          </label>
          <label>
            Playoff{' '}
            <select name="playoff">
              <option value="" selected={!typed.playoff}>
                Single elimination unless chosen
              </option>
              <option value="single" selected={typed.playoff === 'single'}>
                Single elimination
              </option>
              <option value="double" selected={typed.playoff === 'double'}>
                Double elimination
              </option>
            </select>
          </label>
        </fieldset>
        <fieldset class="partners-choices">
          <legend>Partners, for an event of teams</legend>
          <label>
            <input type="radio" name="partners" value="registered" checked={typed.partners !== 'drawn'} /> Teams register together
          </label>
          <label>
            <input type="radio" name="partners" value="drawn" checked={typed.partners === 'drawn'} /> Players register alone, and partners are drawn once
            check-in closes
          </label>
          <label>
            With an odd number of players drawn{' '}
            <select name="oddPlayer">
              <option value="" selected={!typed.oddPlayer}>
                the player left over sits out
              </option>
              <option value="twice" selected={typed.oddPlayer === 'twice'}>
                the player left over plays on two teams
              </option>
            </select>
          </label>
        </fieldset>
        <fieldset class="prize-choices">
          <legend>Prizes (leave empty for the event’s own)</legend>
          <label>
            Prizes by place, one a line, 1st first{' '}
            <textarea name="prizes" rows={3}>
              {typed.prizes ?? ''}
            </textarea>
          </label>
          <label class="check-line">
            <input type="checkbox" name="consolation" value="first-round" checked={typed.consolation === 'first-round'} /> Single elimination: the first round’s
            losers play a second-chance bracket of their own
          </label>
          <label>
            Second-chance prizes by its own places, one a line, 1st first{' '}
            <textarea name="secondChancePrizes" rows={2}>
              {typed.secondChancePrizes ?? ''}
            </textarea>
          </label>
        </fieldset>
        {props.series && props.series.length > 0 ? (
          <label>
            Counts toward a series{' '}
            <select name="series">
              <option value="" selected={!typed.series}>
                No series
              </option>
              {props.series.map((s) => (
                <option value={s.seriesId} selected={typed.series === s.seriesId}>
                  {s.name}
                </option>
              ))}
            </select>
          </label>
        ) : null}
        <button type="submit">Create the tournament</button>
      </PostForm>
      {props.sessions ? <SessionList {...props.sessions} /> : null}
    </section>
  );
}

export interface DirectorTournamentProps {
  csrf: string;
  tournamentId: string;
  name: string;
  format: string;
  /** What the event is, in words ("Single elimination", "Pitt Boss"). */
  kind: string;
  status: string;
  /** Each team with whether it checked in and its standing in the competition's words. */
  teams: (TeamRow & { checkedIn: boolean; standing: string })[];
  /** Each match, with how its first dealer was chosen once it is seated (`dealt`, in words). */
  matches: (MatchModel & { names: [string, string]; dealt?: string; ruling?: WaitingParts | null })[];
  progressive: boolean;
  /** Whether the entrants are players alone now (a progressive evening's, or drawn partners' before the draw); `progressive` when absent. */
  alone?: boolean;
  /** An event whose partners are drawn: the draw's panel. */
  partners?: PartnersPanelProps;
  /** A partner draw previewed, waiting for the director's confirmation. */
  partnerDraw?: PartnerDrawPreview | null;
  /** A bracket drawn round by round whose last round is decided: the round to draw and who draws for each group's bye. */
  /** `paired`: the round is paired from the standings (Swiss), with no cards to draw. */
  roundToDraw?: { round: number; final: boolean; drawing: Partial<Record<'winners' | 'losers', string[]>>; paired?: true; playoff?: true } | null;
  /** A progressive evening's players, rounds and seating. */
  progressivePanel?: ProgressiveDirectorProps;
  tables: number;
  /** Whether the venue's /screen shows this tournament because a director pinned it, because it is the one being played, or shows another. */
  screen: 'pinned' | 'default' | 'other';
  /** For each ready match: how its first dealer is chosen, and the clock the event gives it. */
  seatings?: Record<string, { firstDealer: FirstDealerInfo; clock: { minutes: number | null; per: 'match' | 'game' } }>;
  /** A start asked for: the draw it would record, waiting for the director's confirmation. */
  startPreview?: StartPreview | null;
  /** A withdrawal asked for, waiting for the director's confirmation. */
  withdrawal?: PendingWithdrawal | null;
  /** Sign-up, the waitlist, fees and check-in codes. */
  registration?: RegistrationPanelProps;
  /** A pasted list previewed, waiting for the director's confirmation (or its fixes). */
  bulkPreview?: BulkPreviewProps | null;
  /** A registration past a full cap, waiting for the director to raise the cap or waitlist it. */
  capChoice?: CapChoiceProps | null;
  /** Copying an earlier event's entrants, its series, and the known players offered as names are typed. */
  circuit?: CircuitPanelProps;
  error?: string | null;
  done?: string | null;
}

export function DirectorTournament(props: DirectorTournamentProps) {
  const base = `/director/tournaments/${encodeURIComponent(props.tournamentId)}`;
  const form = (path: string) => ({ action: `${base}${path}`, target: DIRECTOR_PANEL_ID, csrf: props.csrf });
  const ready = props.matches.filter((m) => m.status === 'ready');
  const reg = props.registration;
  // Each ready match's table box starts at the free table a table's phone would start it at.
  const nextTables = readyTables(props.matches);
  const alone = props.alone ?? props.progressive;
  return (
    <section id={DIRECTOR_PANEL_ID} class="director" aria-labelledby="director-title">
      <p class="breadcrumb">
        <a href="/director">Director</a>
      </p>
      <h1 id="director-title">{props.name}</h1>
      <p>
        {props.kind} · {STATUS_NAMES[props.status as keyof typeof STATUS_NAMES] ?? props.status} · <a href={`${base}/codes`}>Print the table codes</a> ·{' '}
        <a href={`/tournaments/${encodeURIComponent(props.tournamentId)}`}>Public page</a>
      </p>
      <Notice error={props.error ?? null} done={props.done ?? null} />
      {props.startPreview ? <ConfirmStart preview={props.startPreview} form={form} /> : null}
      {props.withdrawal ? <ConfirmWithdraw pending={props.withdrawal} form={form} /> : null}
      {props.partnerDraw ? <ConfirmPartnerDraw preview={props.partnerDraw} form={form} tournamentId={props.tournamentId} /> : null}
      {props.capChoice ? <CapChoice choice={props.capChoice} form={form} /> : null}
      {/* During an evening the round comes first: seating it, and each table's state. */}
      {props.progressivePanel ? <ProgressiveDirector {...props.progressivePanel} form={form} /> : null}
      {props.partners ? <PartnersPanel props={props.partners} form={form} /> : null}
      {props.bulkPreview ? (
        <BulkPreviewPanel bulk={props.bulkPreview} action={`${base}/${alone ? 'players' : 'teams'}/bulk`} csrf={props.csrf} progressive={alone} />
      ) : null}

      <section class="screen-pin" aria-labelledby="screen-pin-title">
        <h2 id="screen-pin-title">Venue screen</h2>
        {props.screen === 'pinned' ? (
          <p data-screen="pinned">
            TVs on <a href="/screen">/screen</a> show this tournament, and keep showing it when another is created.
          </p>
        ) : (
          <PostForm {...form('/screen')} class="inline-form">
            <span data-screen={props.screen}>
              {props.screen === 'default' ? (
                <>
                  <a href="/screen">/screen</a> shows this tournament, the one being played; creating another never moves it, and starting another moves it only
                  once this one is over. Pin it to keep it there whatever starts.
                </>
              ) : (
                <>
                  <a href="/screen">/screen</a> shows another tournament.
                </>
              )}
            </span>
            <button type="submit" data-action="pin-screen">
              {props.screen === 'default' ? 'Pin this tournament to /screen' : 'Show this tournament on /screen'}
            </button>
          </PostForm>
        )}
        <p class="muted" data-screen-address>
          A TV that must show this tournament whatever is pinned opens{' '}
          <a href={`/screen?t=${encodeURIComponent(props.tournamentId)}`}>/screen?t={props.tournamentId}</a> instead.
        </p>
      </section>

      <h2 id="entrants-title">
        {alone ? 'Players' : 'Entrants'} ({props.teams.length})
      </h2>
      {/* A region with a tab stop, so a keyboard user can scroll the list on a narrow phone. */}
      <div class="table-scroll" role="region" aria-labelledby="entrants-title" tabindex={0}>
        <table class={alone ? 'director-teams director-teams--players' : 'director-teams'}>
          <thead>
            <tr>
              {alone ? null : <th scope="col">Id</th>}
              <th scope="col">Name</th>
              {alone ? null : <th scope="col">Players</th>}
              {alone ? null : <th scope="col">Seed</th>}
              <th scope="col">{alone ? 'Where' : 'Status'}</th>
              {reg?.charges ? <th scope="col">Fee</th> : null}
              {reg ? <th scope="col">Check-in code</th> : null}
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {props.teams.map((t) => (
              <tr data-team={t.teamId}>
                {alone ? null : <td data-label="Id">{t.teamId}</td>}
                <td class="entrant-name">{alone ? <a href={playerLink(props.tournamentId, t.teamId)}>{t.name}</a> : t.name}</td>
                {alone ? null : <td data-label="Players">{t.players.join(' & ')}</td>}
                {alone ? null : <td data-label="Seed">{t.seed ?? '—'}</td>}
                <td data-label={alone ? 'Where' : 'Status'}>
                  {t.standing}
                  {t.checkedIn ? (reg?.checkedInBy[t.teamId] === 'team' ? ' · checked in by the team' : ' · checked in') : ''}
                </td>
                {reg?.charges ? (
                  <td data-fee={t.teamId} data-label="Fee">
                    {feeWords(reg.fees[t.teamId])}
                  </td>
                ) : null}
                {reg ? (
                  <td class="code-cell" data-label="Check-in code">
                    {reg.codes[t.teamId] ?? ''}
                  </td>
                ) : null}
                <td class="entrant-actions">
                  {reg?.charges && t.status !== 'withdrawn' && (reg.fees[t.teamId]?.owed ?? 0) > 0 ? (
                    <PostForm
                      {...form(`/teams/${encodeURIComponent(t.teamId)}/paid`)}
                      class="inline-form"
                      confirm={`Record $${reg.fees[t.teamId]!.owed} paid by ${t.name}? A payment recorded stays in the ledger.`}
                    >
                      <button type="submit" data-action="paid">
                        Paid ${reg.fees[t.teamId]!.owed}
                      </button>
                    </PostForm>
                  ) : null}
                  {reg?.charges && (reg.fees[t.teamId]?.paid ?? 0) > 0 ? (
                    <PostForm
                      {...form(`/teams/${encodeURIComponent(t.teamId)}/unpaid`)}
                      class="inline-form"
                      confirm={`Take back the payment recorded for ${t.name}? The ledger keeps both.`}
                    >
                      <button type="submit" data-action="unpaid">
                        Undo paid
                      </button>
                    </PostForm>
                  ) : null}
                  {props.status === 'registration' && t.checkedIn && !props.partners?.drawn ? (
                    <PostForm {...form(`/teams/${encodeURIComponent(t.teamId)}/check-in/undo`)} class="inline-form">
                      <button type="submit" data-action="undo-check-in">
                        Undo check-in
                      </button>
                    </PostForm>
                  ) : null}
                  {props.status === 'registration' && t.status === 'registered' ? (
                    <>
                      {t.checkedIn ? null : (
                        <PostForm {...form('/check-in')} class="inline-form">
                          <input type="hidden" name="teamId" value={t.teamId} />
                          <button type="submit">{alone ? 'Check the player in' : 'Check in'}</button>
                        </PostForm>
                      )}
                      <PostForm {...form('/withdraw')} class="inline-form">
                        <input type="hidden" name="teamId" value={t.teamId} />
                        <button type="submit" class="button-quiet">
                          {alone ? 'Withdraw the player' : 'Withdraw'}
                        </button>
                      </PostForm>
                    </>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      {reg ? <RegistrationPanel props={reg} form={form} registering={props.status === 'registration'} progressive={alone} /> : null}
      {reg && props.status === 'registration' && !props.partners?.drawn ? (
        <BulkForm action={`${base}/${alone ? 'players' : 'teams'}/bulk`} csrf={props.csrf} progressive={alone} lines={props.bulkPreview?.lines ?? ''} />
      ) : null}

      {props.circuit ? <CircuitPanel props={props.circuit} csrf={props.csrf} /> : null}

      {props.status === 'registration' && !alone && !props.partners ? (
        <>
          <h2>Register a team</h2>
          <PostForm {...form('/teams')} class="stack-form">
            <label>
              Team name <input name="name" required maxlength={120} />
            </label>
            <label>
              First player <input name="player1" required maxlength={120} list={KNOWN_PLAYERS_ID} />
            </label>
            <label>
              Second player <input name="player2" required maxlength={120} list={KNOWN_PLAYERS_ID} />
            </label>
            <label>
              Registered on <input name="registeredOn" type="date" />
            </label>
            <button type="submit">Register</button>
          </PostForm>
        </>
      ) : null}

      {props.status === 'registration' && !(props.partners && !props.partners.drawn) ? (
        <StartForm teams={props.teams} progressive={props.progressive} format={props.format} form={form} charges={reg?.charges ?? false} />
      ) : null}

      {props.roundToDraw ? <DrawRoundForm draw={props.roundToDraw} teams={props.teams} form={form('/rounds/draw')} /> : null}

      {props.matches.length > 0 ? (
        <>
          <h2>Matches</h2>
          <ul class="director-matches">
            {props.matches.map((m) => (
              <li>
                {m.label}: {m.names[0]} vs {m.names[1]} · {m.status}
                {m.table !== null ? ` · table ${m.table}` : ''}
                {m.dealt ? ` · ${m.dealt}` : ''}
                {m.ruling ? (
                  <>
                    {' · '}
                    <strong data-awaiting-ruling>
                      <WaitingLine parts={m.ruling} />
                    </strong>
                  </>
                ) : null}
              </li>
            ))}
          </ul>
        </>
      ) : null}

      {ready.length > 0 ? (
        <>
          <h2>Seat a match</h2>
          {ready.map((m) => (
            <PostForm {...form(`/matches/${encodeURIComponent(m.matchId)}/start`)} class="stack-form seat-form">
              <span>
                {m.label}: {m.names[0]} vs {m.names[1]}
              </span>{' '}
              <label>
                Table{' '}
                <input
                  name="table"
                  type="number"
                  min={1}
                  max={props.tables + 16}
                  required
                  class="narrow"
                  value={nextTables.has(m.matchId) ? String(nextTables.get(m.matchId)) : undefined}
                />
              </label>{' '}
              {props.seatings?.[m.matchId] ? (
                <>
                  <FirstDealerFields info={props.seatings[m.matchId]!.firstDealer} />
                  <ClockField {...props.seatings[m.matchId]!.clock} />
                  <NamedDealerFields />
                </>
              ) : null}{' '}
              <button type="submit">Start</button>
            </PostForm>
          ))}
        </>
      ) : null}
    </section>
  );
}

/** An entrant's fee in words: "$40, paid", "$30, $30 owed", "$40, nothing owed" (withdrawn). */
function feeWords(fee: { fee: number | null; paid: number; owed: number } | undefined): string {
  if (!fee || fee.fee === null) return '—';
  if (fee.owed === 0 && fee.paid < fee.fee) return `$${fee.fee}, nothing owed`;
  return fee.owed === 0 ? `$${fee.fee}, paid` : `$${fee.fee}, $${fee.owed} owed`;
}

const GROUP_TITLES = { winners: 'Winners’ bracket', losers: 'Losers’ bracket' } as const;

/**
 * The next round of a bracket drawn round by round: each odd group's bye goes to the highest
 * card its teams draw at the table (or, with no cards written, a draw from the recorded seed).
 * A drawn round cannot be taken back, so the button asks for a tick first.
 */
function DrawRoundForm({
  draw,
  teams,
  form,
}: {
  draw: NonNullable<DirectorTournamentProps['roundToDraw']>;
  teams: DirectorTournamentProps['teams'];
  form: { action: string; target: string; csrf: string };
}) {
  const name = (id: string) => teams.find((t) => t.teamId === id)?.name ?? id;
  const what = draw.final ? 'the final' : `round ${draw.round}`;
  const groups = (['winners', 'losers'] as const).filter((g) => draw.drawing[g]);
  if (draw.playoff) {
    return (
      <section class="draw-round" aria-labelledby="draw-round-title">
        <h2 id="draw-round-title">Draw the playoff</h2>
        <PostForm {...form} class="stack-form">
          <input type="hidden" name="round" value={String(draw.round)} />
          <p>
            Pool play is over. The top teams of each pool go on, seeded from the pools’ standings: pool winners first, then the runners-up, so that teams of one
            pool meet as late as can be.
          </p>
          <label class="confirm-check">
            <input type="checkbox" name="confirm" value="yes" required /> Draw the playoff from the pools’ standings now (it cannot be taken back)
          </label>
          <button type="submit">Draw the playoff</button>
        </PostForm>
      </section>
    );
  }
  if (draw.paired) {
    return (
      <section class="draw-round" aria-labelledby="draw-round-title">
        <h2 id="draw-round-title">Pair {what}</h2>
        <PostForm {...form} class="stack-form">
          <input type="hidden" name="round" value={String(draw.round)} />
          <p>
            Teams with the same number of wins play each other, no two teams meet twice while another pairing exists, and with an odd number the bye goes to the
            lowest-ranked team that has not had one.
          </p>
          <label class="confirm-check">
            <input type="checkbox" name="confirm" value="yes" required /> Pair {what} from the standings now (it cannot be taken back)
          </label>
          <button type="submit">Pair round {draw.round}</button>
        </PostForm>
      </section>
    );
  }
  return (
    <section class="draw-round" aria-labelledby="draw-round-title">
      <h2 id="draw-round-title">Draw {what}</h2>
      <PostForm {...form} class="stack-form">
        <input type="hidden" name="round" value={String(draw.round)} />
        {groups.length === 0 ? <p>No bracket has an odd count: nobody draws for a bye this round.</p> : null}
        {groups.map((group) => (
          <fieldset>
            <legend>{GROUP_TITLES[group]}: the bye goes to the highest card</legend>
            <p class="muted">Drawing: {draw.drawing[group]!.map((id) => `${name(id)} (${id})`).join(', ')}</p>
            <label>
              Cards drawn, one draw a line, team and card (a redraw of the tied teams on the next line)
              <textarea
                name={`${group}Cards`}
                rows={3}
                placeholder={draw.drawing[group]!.slice(0, 2)
                  .map((id, i) => `${id} ${i === 0 ? 'AS' : '10H'}`)
                  .join(', ')}
              ></textarea>
            </label>
          </fieldset>
        ))}
        {groups.length > 0 ? (
          <label>
            Random seed when no cards are written (recorded) <input name="seed" maxlength={100} />
          </label>
        ) : null}
        <label class="confirm-check">
          <input type="checkbox" name="confirm" value="yes" required /> The cards are drawn: draw {what} (it cannot be taken back)
        </label>
        <button type="submit">{draw.final ? 'Draw the final' : `Draw round ${draw.round}`}</button>
      </PostForm>
    </section>
  );
}

export interface TableCodesProps {
  tournamentName: string;
  cards: { table: number; code: string; link: string }[];
  /** Where each table's code is rotated from (a leaked code), with the session's token. */
  rotate?: { csrf: string; action: (table: number) => string };
  /** The address the links use, and why, when it is not the one the page was opened at. */
  address?: { origin: string; note: string | null };
  /** Each team's (or progressive player's) own page, for a card with its QR code. */
  teams?: { name: string; link: string }[];
  /** The public sign-up's link, while the event takes sign-ups. */
  signUpLink?: string | null;
  /** The event's rules sheet, printed on each table's card and linked for the director to print. */
  rules?: string;
}

/** The sheet a director prints and cuts up: one card per table with its code and QR link. */
export function TableCodesPage({ tournamentName, cards, rotate, address, teams = [], signUpLink = null, rules }: TableCodesProps) {
  return (
    <Layout title={`${tournamentName} · table codes`}>
      <h1>{tournamentName}: table codes</h1>
      <p class="no-print">Print this page and put each card on its table. A scorekeeper scans the code or types it at /join.</p>
      {rules ? (
        <p class="no-print">
          <a href={rules}>The rules in force</a>: print them for the tables, or let the players open them from the address on each card.
        </p>
      ) : null}
      {address ? (
        <p class={address.note ? 'notice notice--review no-print' : 'no-print'} data-public-address={address.origin}>
          The links and QR codes go to <strong>{address.origin}</strong>.{address.note ? ` ${address.note}` : ''}
        </p>
      ) : null}
      {signUpLink ? <SignUpCard link={signUpLink} name={tournamentName} /> : null}
      <ol class="table-cards">
        {cards.map((card) => (
          <li class="table-card" data-table={card.table}>
            <p class="table-card-number">Table {card.table}</p>
            <QrCode text={card.link} label={`QR link to join table ${card.table}`} />
            <p class="table-card-code" data-code={card.code}>
              {card.code}
            </p>
            <p class="table-card-link">{card.link}</p>
            {rules ? <p class="table-card-rules">Rules: {rules}</p> : null}
            {rotate ? (
              <form method="post" action={rotate.action(card.table)} class="no-print">
                <input type="hidden" name="_csrf" value={rotate.csrf} />
                <button type="submit" class="button-quiet">
                  New code for table {card.table} (signs out its scorekeepers)
                </button>
              </form>
            ) : null}
          </li>
        ))}
      </ol>
      {teams.length > 0 ? (
        <section class="team-cards-sheet" aria-labelledby="team-cards-title">
          <h2 id="team-cards-title">Where to go next: one card each</h2>
          <p class="no-print">Hand each its card: the code opens its own page, which says where to play next, live.</p>
          <ol class="table-cards team-cards">
            {teams.map((team) => (
              <li class="table-card team-card">
                <p class="table-card-number">{team.name}</p>
                <QrCode text={team.link} label={`QR link to the page of ${team.name}`} />
                <p class="table-card-link">{team.link}</p>
              </li>
            ))}
          </ol>
        </section>
      ) : null}
    </Layout>
  );
}

/** A director page as a whole document. */
export function DirectorPage({ title, signedIn, children }: { title: string; signedIn?: string; children?: unknown }) {
  return (
    <Layout title={title} signedIn={signedIn}>
      {children as never}
    </Layout>
  );
}
