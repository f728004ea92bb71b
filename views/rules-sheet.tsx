/**
 * The rules in force at an event, one sentence a rule, written from the options its games are
 * scored with; the house's rules (those that read otherwise than the rulebook) are marked. One
 * page on paper, the same component as a panel of the venue screen and as the create form's preview.
 */
import type { RulesSheet } from '../engine/rules-sheet.ts';

/** The sheet's parts and lines: what the page, the screen and the preview all show. */
export function RulesSheetBody({ sheet, rulebook }: { sheet: RulesSheet; rulebook: string }) {
  return (
    <div class="rules-sheet-body">
      <p class="rules-key">
        {sheet.houseRules === 0 ? (
          <>Every rule here is the {rulebook} rulebook’s own.</>
        ) : (
          <>
            <strong class="house-mark">House rule</strong> marks the {sheet.houseRules === 1 ? 'rule that differs' : `${sheet.houseRules} rules that differ`}{' '}
            from the {rulebook} rulebook.
          </>
        )}
      </p>
      {sheet.parts.map((part) => (
        <section class="rules-part">
          <h2>{part.title}</h2>
          <ul>
            {part.lines.map((line) => (
              <li data-rule={line.key} class={line.house ? 'house-rule' : undefined}>
                {line.house ? (
                  <>
                    <strong class="house-mark">House rule:</strong>{' '}
                  </>
                ) : null}
                {line.text}
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}

export interface RulesSheetPageProps {
  name: string;
  rulebook: string;
  sheet: RulesSheet;
  /** The event's own page, to go back to. */
  home: string;
}

/** The printable page: the event's name, its rules, and the way back. */
export function RulesSheetPage(props: RulesSheetPageProps) {
  return (
    <article class="rules-sheet">
      <p class="breadcrumb">
        <a href={props.home}>{props.name}</a>
      </p>
      <h1>Rules in force: {props.name}</h1>
      <RulesSheetBody sheet={props.sheet} rulebook={props.rulebook} />
    </article>
  );
}

/**
 * The way back to an event's page and, beside it, its rules sheet: the trail every page of an
 * event starts with, so the rules in force are one tap away wherever a player stands.
 */
export function EventTrail({ tournamentId, name }: { tournamentId: string; name: string }) {
  const base = `/tournaments/${encodeURIComponent(tournamentId)}`;
  return (
    <p class="breadcrumb">
      <a href={base}>{name}</a>
      {' · '}
      <a href={`${base}/rules`} data-rules-link>
        Rules in force
      </a>
    </p>
  );
}
