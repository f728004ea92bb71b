/**
 * The director's desk for drawn partners: registering a player alone, then, once check-in closes,
 * the draw: a preview of the teams it would make (from a seed shown, and recorded with it), and a
 * confirmation that asks once, since a draw recorded cannot be made again. After the draw, the
 * teams it made and who plays twice or sits out.
 */
import { PostForm } from './entry-forms.tsx';

type Form = (path: string) => { action: string; target: string; csrf: string };
type Person = { playerId: string; name: string };

/** A draw as the desk shows it, previewed or recorded. */
export interface PartnerDrawView {
  seed: string;
  odd: 'twice' | 'sit-out';
  teams: { teamId: string; name: string; players: Person[] }[];
  sittingOut: Person | null;
  twice: Person | null;
  absent?: Person[];
  promoted?: Person[];
}

/** A draw previewed: what its confirmation sends back, so the teams recorded are the teams shown. */
export interface PartnerDrawPreview extends PartnerDrawView {
  expect: string;
}

/** The desk's partners panel: before the draw, who is here and the draw's form; after it, the teams. */
export interface PartnersPanelProps {
  registering: boolean;
  /** Players registered (not withdrawn), and how many of them checked in. */
  registered: number;
  checkedIn: number;
  /** What an odd player does unless the draw says otherwise. */
  odd: 'twice' | 'sit-out';
  drawn: PartnerDrawView | null;
}

const ODD_WORDS = {
  twice: 'the player left over also partners the last player drawn, who plays on two teams',
  'sit-out': 'the player left over sits out',
} as const;

function Teams({ view }: { view: PartnerDrawView }) {
  return (
    <>
      <ol class="drawn-teams" data-drawn-teams>
        {view.teams.map((t) => (
          <li data-team={t.teamId}>{t.name}</li>
        ))}
      </ol>
      {view.twice ? <p data-twice>{view.twice.name} plays on two teams.</p> : null}
      {view.sittingOut ? <p data-sitting-out>{view.sittingOut.name} sits out.</p> : null}
    </>
  );
}

export function PartnersPanel({ props, form }: { props: PartnersPanelProps; form: Form }) {
  if (props.drawn) {
    return (
      <section class="partners-panel" aria-labelledby="partners-title" data-partners="drawn">
        <h2 id="partners-title">Drawn partners</h2>
        <p>
          Drawn from the seed “{props.drawn.seed}”, recorded with the draw; with an odd number of players, {ODD_WORDS[props.drawn.odd]}.
        </p>
        <Teams view={props.drawn} />
      </section>
    );
  }
  if (!props.registering) return null;
  return (
    <section class="partners-panel" aria-labelledby="partners-title" data-partners="waiting">
      <h2 id="partners-title">Drawn partners</h2>
      <p>
        Players register alone; once check-in closes, partners are drawn from the players checked in ({props.checkedIn} of {props.registered}).
      </p>
      <h3>Register a player</h3>
      <PostForm {...form('/players')} class="stack-form">
        <label>
          Name <input name="name" required maxlength={120} list="known-players" />
        </label>
        <button type="submit">Register the player</button>
      </PostForm>
      <h3>Draw partners</h3>
      <PostForm {...form('/partners/draw')} class="stack-form">
        <fieldset>
          <legend>With an odd number of players</legend>
          <label>
            <input type="radio" name="odd" value="sit-out" checked={props.odd === 'sit-out'} /> the player left over sits out
          </label>
          <label>
            <input type="radio" name="odd" value="twice" checked={props.odd === 'twice'} /> the player left over plays on two teams
          </label>
        </fieldset>
        <label>
          Seed (leave empty for one chosen at random) <input name="seed" maxlength={200} autocomplete="off" />
        </label>
        <button type="submit" data-action="preview-partner-draw">
          Preview the draw
        </button>
      </PostForm>
    </section>
  );
}

/** The draw previewed, asking once before it is recorded. */
export function ConfirmPartnerDraw({ preview, form, tournamentId }: { preview: PartnerDrawPreview; form: Form; tournamentId: string }) {
  const absent = preview.absent ?? [];
  const promoted = preview.promoted ?? [];
  return (
    <section class="confirm-step" aria-labelledby="confirm-partners-title" data-confirm-partners>
      <h2 id="confirm-partners-title" tabindex={-1} autofocus>
        Record this draw of partners?
      </h2>
      <p>
        Drawn at random from the seed “{preview.seed}”, which is recorded. Nothing is recorded until you confirm; the draw then stands, registration and
        check-in close, and the teams are the event’s entrants.
      </p>
      {absent.length > 0 ? (
        <p class="notice notice--review" data-absent>
          Not checked in, withdrawn by this draw: {absent.map((p) => p.name).join(', ')}.
        </p>
      ) : null}
      {promoted.length > 0 ? <p data-promoted>From the waitlist, checked in: {promoted.map((p) => p.name).join(', ')}.</p> : null}
      <Teams view={preview} />
      <div class="button-row">
        <PostForm {...form('/partners/draw')}>
          <input type="hidden" name="seed" value={preview.seed} />
          <input type="hidden" name="odd" value={preview.odd} />
          <input type="hidden" name="expect" value={preview.expect} />
          <input type="hidden" name="confirm" value="yes" />
          <button type="submit" class="big-button big-button--danger" data-action="confirm-partner-draw">
            Yes, record this draw
          </button>
        </PostForm>
        <a class="big-button big-button--quiet" href={`/director/tournaments/${encodeURIComponent(tournamentId)}`} data-action="cancel">
          Cancel
        </a>
      </div>
    </section>
  );
}
