/**
 * The director's desk for the circuit: series created and events joined to them, every known
 * player with the merge, split and unmerge forms, and the preview of copying an earlier event's
 * entrants, which records nothing until it is confirmed.
 */
import { knownPlayers } from '../events/player-identity.ts';
import type { ReadModels } from '../events/projections.ts';
import { Notice, PostForm } from './entry-forms.tsx';
import { Layout } from './layout.tsx';
import { pointsWords } from './series-page.tsx';
import type { BulkPreviewProps } from './registration-panel.tsx';

export interface CircuitDeskProps {
  csrf: string;
  name: string;
  models: ReadModels;
  error?: string;
  done?: string;
}

export function CircuitDesk({ csrf, name, models, error, done }: CircuitDeskProps) {
  const circuit = models.circuit;
  const series = Object.values(circuit.series);
  const tournaments = Object.values(models.tournaments).map((t) => t.model);
  const players = knownPlayers(circuit);
  const merged = Object.values(circuit.people).filter((p) => p.mergedInto !== undefined);
  const eventName = (id: string) => models.tournaments[id]?.model.name ?? id;
  return (
    <Layout title="Series and players" signedIn={name}>
      <section class="director" aria-labelledby="circuit-title">
        <h1 id="circuit-title">Series and players</h1>
        <Notice error={error ?? null} done={done ?? null} />
        <p>
          <a href="/director">Back to the desk</a>
        </p>
        <h2 id="series-title">Series</h2>
        {series.length === 0 ? (
          <p class="empty">No series yet.</p>
        ) : (
          <ul aria-labelledby="series-title">
            {series.map((s) => (
              <li>
                <a href={`/series/${encodeURIComponent(s.seriesId)}`}>{s.name}</a>: {pointsWords(s.points)}; {s.tournaments.length} event
                {s.tournaments.length === 1 ? '' : 's'}
                {s.tournaments.length > 0 ? ` (${s.tournaments.map(eventName).join(', ')})` : ''}
              </li>
            ))}
          </ul>
        )}
        <PostForm action="/director/series" csrf={csrf}>
          <h3>Create a series</h3>
          <p>
            <label for="series-id">Short name for its address</label>
            <input id="series-id" name="seriesId" required pattern="[A-Za-z0-9][A-Za-z0-9\-]*" maxlength={60} />
          </p>
          <p>
            <label for="series-name">Name</label>
            <input id="series-name" name="name" required maxlength={200} />
          </p>
          <p>
            <label for="series-points">Points for each place and for playing</label>
            <input id="series-points" name="points" required value="1: 10, 2: 7, 3: 5, 4: 3, played: 1" />
          </p>
          <button type="submit" data-action="create-series">
            Create the series
          </button>
        </PostForm>
        {series.length > 0 && tournaments.length > 0 ? (
          <PostForm action="/director/series/join" csrf={csrf}>
            <h3>Count an event toward a series</h3>
            <p>
              <label for="join-event">Event</label>
              <select id="join-event" name="tournamentId">
                {tournaments.map((t) => (
                  <option value={t.tournamentId}>{t.name}</option>
                ))}
              </select>
            </p>
            <p>
              <label for="join-series">Series</label>
              <select id="join-series" name="seriesId">
                {series.map((s) => (
                  <option value={s.seriesId}>{s.name}</option>
                ))}
              </select>
            </p>
            <button type="submit" data-action="join-series">
              Count it toward the series
            </button>
          </PostForm>
        ) : null}
        <h2 id="players-title">Players</h2>
        <p>
          A name registered again (in any case, spacing or punctuation) is the same player. Merge two records of one person; split the events of a record that
          are someone else’s.
        </p>
        {players.length === 0 ? (
          <p class="empty">Nobody has entered an event yet.</p>
        ) : (
          <>
            <ul aria-labelledby="players-title">
              {players.map((p) => (
                <li>
                  <a href={`/players/${encodeURIComponent(p.playerId)}`}>{p.name}</a> ({p.playerId}):{' '}
                  {[...new Set(p.entries.map((e) => eventName(e.slice(0, e.indexOf(' ')))))].join(', ')}
                </li>
              ))}
            </ul>
            <PostForm action="/director/players/merge" csrf={csrf}>
              <h3>Merge two records of one person</h3>
              <p>
                <label for="merge-from">This record</label>
                <select id="merge-from" name="playerId">
                  {players.map((p) => (
                    <option value={p.playerId}>
                      {p.name} ({p.playerId})
                    </option>
                  ))}
                </select>
              </p>
              <p>
                <label for="merge-into">is the same person as</label>
                <select id="merge-into" name="into">
                  {players.map((p) => (
                    <option value={p.playerId}>
                      {p.name} ({p.playerId})
                    </option>
                  ))}
                </select>
              </p>
              <button type="submit" data-action="merge-players">
                Merge them
              </button>
            </PostForm>
            <PostForm action="/director/players/split" csrf={csrf}>
              <h3>Split a record of two people</h3>
              <p>
                <label for="split-from">Record</label>
                <select id="split-from" name="playerId">
                  {players.map((p) => (
                    <option value={p.playerId}>
                      {p.name} ({p.playerId})
                    </option>
                  ))}
                </select>
              </p>
              <p>
                <label for="split-events">Events that were someone else (event ids, separated by commas)</label>
                <input id="split-events" name="tournaments" required />
              </p>
              <p>
                <label for="split-name">That person’s name</label>
                <input id="split-name" name="name" maxlength={120} />
              </p>
              <button type="submit" data-action="split-player">
                Split them
              </button>
            </PostForm>
          </>
        )}
        {merged.length > 0 ? (
          <>
            <h3 id="merged-title">Merged records</h3>
            <ul aria-labelledby="merged-title">
              {merged.map((p) => (
                <li>
                  {p.name} ({p.playerId}), merged into {models.circuit.people[p.mergedInto!]?.name ?? p.mergedInto}{' '}
                  <PostForm action={`/director/players/${encodeURIComponent(p.playerId)}/unmerge`} csrf={csrf} class="inline-form">
                    <button type="submit" class="button-quiet" data-action="unmerge-player">
                      Take back the merge of {p.name}
                    </button>
                  </PostForm>
                </li>
              ))}
            </ul>
          </>
        ) : null}
      </section>
    </Layout>
  );
}

/** The form on an event's desk: register the entrants of an earlier event. */
export function CopyEntrantsForm({ csrf, tournamentId, events }: { csrf: string; tournamentId: string; events: { tournamentId: string; name: string }[] }) {
  if (events.length === 0) return null;
  return (
    <PostForm action={`/director/tournaments/${encodeURIComponent(tournamentId)}/entrants/copy`} csrf={csrf}>
      <p>
        <label for="copy-from">Register the same entrants as</label>
        <select id="copy-from" name="from">
          {events.map((e) => (
            <option value={e.tournamentId}>{e.name}</option>
          ))}
        </select>{' '}
        <button type="submit" data-action="copy-entrants">
          Show who would be registered
        </button>
      </p>
    </PostForm>
  );
}

/** What copying an earlier event's entrants would record, as the desk decides it. */
export interface CopyPreviewProps {
  from: { tournamentId: string; name: string };
  bulk: BulkPreviewProps['preview'];
  /** Entrants left out because a player of theirs is already registered here. */
  playing: { name: string; players: string[] }[];
  /** The lines the copy is decided as, one an entrant. */
  lines: string;
  /** Each line's entrant in people's words. */
  labels: string[];
}

export function CopyPreviewPage({
  csrf,
  tournamentId,
  tournamentName,
  preview,
}: {
  csrf: string;
  tournamentId: string;
  tournamentName: string;
  preview: CopyPreviewProps;
}) {
  const { bulk, playing } = preview;
  return (
    <Layout title={`${tournamentName}: entrants of ${preview.from.name}`}>
      <section class="director" aria-labelledby="copy-title">
        <h1 id="copy-title">
          Register the entrants of {preview.from.name} in {tournamentName}?
        </h1>
        <p>Nothing is recorded until you confirm.</p>
        {bulk.entrants.length > 0 ? (
          <>
            <h2 id="copy-new">To register ({bulk.entrants.length})</h2>
            <ul aria-labelledby="copy-new">
              {bulk.entrants.map((e) => (
                <li>
                  {e.name}
                  {e.players.length > 1 ? `: ${e.players.join(' & ')}` : ''}
                </li>
              ))}
            </ul>
          </>
        ) : null}
        {bulk.already.length + playing.length > 0 ? (
          <>
            <h2 id="copy-left">Left out: already registered ({bulk.already.length + playing.length})</h2>
            <ul aria-labelledby="copy-left">
              {bulk.already.map((e) => (
                <li>{e.name}</li>
              ))}
              {playing.map((e) => (
                <li>
                  {e.name}: {e.players.join(' & ')} (a player of theirs is already registered)
                </li>
              ))}
            </ul>
          </>
        ) : null}
        {bulk.problems.length > 0 ? (
          <>
            <h2 id="copy-problems">Problems: nothing can be recorded until they are fixed</h2>
            <ul aria-labelledby="copy-problems">
              {bulk.problems.map((p) => (
                <li>
                  {preview.labels[p.line - 1] ?? 'An entrant'}: {p.problem}
                </li>
              ))}
            </ul>
          </>
        ) : null}
        {bulk.problems.length === 0 && bulk.entrants.length > 0 ? (
          <PostForm action={`/director/tournaments/${encodeURIComponent(tournamentId)}/entrants/copy`} csrf={csrf}>
            <input type="hidden" name="from" value={preview.from.tournamentId} />
            <input type="hidden" name="confirm" value="yes" />
            <button type="submit" data-action="confirm-copy">
              Register these {bulk.entrants.length}
            </button>
          </PostForm>
        ) : null}
        <p>
          <a href={`/director/tournaments/${encodeURIComponent(tournamentId)}`}>Back to {tournamentName}</a>
        </p>
      </section>
    </Layout>
  );
}

export interface CircuitPanelProps {
  tournamentId: string;
  registering: boolean;
  /** Earlier events whose entrants can be copied here. */
  copyFrom: { tournamentId: string; name: string }[];
  /** The series the event counts toward, if any, and every series. */
  series: { current: { seriesId: string; name: string } | null; all: { seriesId: string; name: string }[] };
  /** Every known player's name, offered as a name is typed. */
  knownNames: string[];
  /** Players who share a name with another, offered by their id too (`#ana-lopez-2`). */
  namesakes: { playerId: string; name: string }[];
}

/** The datalist the registration forms' name fields offer the known players from. */
export const KNOWN_PLAYERS_ID = 'known-players';

/** An event's part in the circuit on its desk: copy an earlier event's entrants, count it toward a series. */
export function CircuitPanel({ props, csrf }: { props: CircuitPanelProps; csrf: string }) {
  const base = `/director/tournaments/${encodeURIComponent(props.tournamentId)}`;
  return (
    <section class="circuit-panel" aria-labelledby="circuit-panel-title">
      <h2 id="circuit-panel-title">Players and series</h2>
      <datalist id={KNOWN_PLAYERS_ID}>
        {props.knownNames.map((name) => (
          <option value={name} />
        ))}
        {props.namesakes.map((p) => (
          <option value={`#${p.playerId}`} label={`${p.name} (#${p.playerId})`} />
        ))}
      </datalist>
      {props.registering ? <CopyEntrantsForm csrf={csrf} tournamentId={props.tournamentId} events={props.copyFrom} /> : null}
      {props.series.current ? (
        <PostForm action={`${base}/series/leave`} csrf={csrf}>
          <p>
            Counts toward <a href={`/series/${encodeURIComponent(props.series.current.seriesId)}`}>{props.series.current.name}</a>.{' '}
            <button type="submit" class="button-quiet" data-action="leave-series">
              Take it out of {props.series.current.name}
            </button>
          </p>
        </PostForm>
      ) : props.series.all.length > 0 ? (
        <PostForm action={`${base}/series`} csrf={csrf}>
          <p>
            <label for="event-series">Count this event toward</label>{' '}
            <select id="event-series" name="seriesId">
              {props.series.all.map((s) => (
                <option value={s.seriesId}>{s.name}</option>
              ))}
            </select>{' '}
            <button type="submit" data-action="join-series">
              Count it
            </button>
          </p>
        </PostForm>
      ) : null}
      <p>
        <a href="/director/players">Series and players</a>: create a series, merge or split players’ records.
      </p>
    </section>
  );
}
