/**
 * The checks a row must pass to enter the ledger without a command (a whole ledger imported
 * from NDJSON): what a live append checks (a known type, a payload valid against its schema, a
 * stream name), and what the commands would have refused (cards that are not in the game's
 * deck, a deal that is not four hands of 13 different cards, bids that are not bids, events for
 * a game that was never started, rules that do not resolve). Pure: the caller folds as it goes.
 */
import { SEATS, cardName, parseCard } from '../../engine/cards.ts';
import { parseBid } from '../../engine/bid.ts';
import { deckFor, inDeck } from '../../engine/deck.ts';
import { resolveRules } from '../../engine/rules.ts';
import { domainEvents } from '../event-catalogue.ts';
import { STREAM_PATTERN } from './append.ts';
import { InvalidPayloadError, UnknownEventTypeError } from '../event-registry.ts';
import type { ReadModels } from '../projections.ts';
import { isPrototypeName } from '../names.ts';

/** A row as stored, its payload parsed. */
export interface StoredRow {
  stream: string;
  type: string;
  schema_version: number;
  payload: unknown;
  meta: Record<string, unknown>;
}

const GAME_EVENTS = new Set([
  'HandDealt',
  'BidMade',
  'CardPlayed',
  'TricksRecorded',
  'MisdealCalled',
  'RenegeClaimed',
  'RulingGiven',
  'ScoreCorrected',
  'RulingWithdrawn',
  'EntryUndone',
]);

/**
 * What is wrong with a stored row, as a sentence, or null when it could have been appended.
 * `models` are the read models folded up to the row before it.
 */
export function storedEventProblem(models: ReadModels, row: StoredRow): string | null {
  if (!STREAM_PATTERN.test(row.stream)) return `stream ${JSON.stringify(row.stream)} is not a stream name`;
  if (typeof row.meta.at !== 'string' || Number.isNaN(Date.parse(row.meta.at))) return 'meta.at must be the time it was appended';
  let payload: Record<string, unknown>;
  try {
    const current = domainEvents.upcast(row.type, row.schema_version, row.payload);
    payload = domainEvents.validate(row.type, current).payload as Record<string, unknown>;
  } catch (error) {
    if (error instanceof UnknownEventTypeError) return `its type ${JSON.stringify(row.type)} is not an event type`;
    if (error instanceof InvalidPayloadError) return error.message;
    return (error as Error).message;
  }
  return keyProblem(payload) ?? gameProblem(models, row.type, payload);
}

// The payload fields that key read models and addresses, as the commands name them.
const KEYS = ['tournamentId', 'matchId', 'gameId', 'teamId', 'playerId'] as const;

/**
 * An id or side a command would have refused because every object answers to it (`__proto__`,
 * `constructor`): a page keyed by it would find the object's own machinery, not an entry.
 */
function keyProblem(payload: Record<string, unknown>): string | null {
  for (const key of KEYS) {
    const value = payload[key];
    if (typeof value === 'string' && isPrototypeName(value))
      return `${key} '${value}' is a word the server keeps for itself, which no command records as an id`;
  }
  const teams = payload.teams;
  const sides = teams && typeof teams === 'object' ? Object.entries(teams) : [];
  for (const [side, value] of sides) {
    if (typeof value === 'string' && isPrototypeName(value))
      return `teams.${side} '${value}' is a word the server keeps for itself, which no command records as a team`;
  }
  return null;
}

function gameProblem(models: ReadModels, type: string, payload: Record<string, unknown>): string | null {
  if (type === 'GameStarted') {
    const gameId = payload.gameId as string;
    if (Object.hasOwn(models.games, gameId)) return `game ${gameId} was already started`;
    try {
      resolveRules(payload.rules);
    } catch (error) {
      return `game ${gameId}: ${(error as Error).message}`;
    }
    return null;
  }
  if (!GAME_EVENTS.has(type)) return null;
  const gameId = payload.gameId as string;
  if (!Object.hasOwn(models.games, gameId)) return `game ${gameId} was never started`;
  const deck = deckFor(resolveRules(models.games[gameId]!.rules).options);
  const card = (name: unknown, where: string): string | null => {
    const parsed = typeof name === 'string' ? parseCard(name) : null;
    if (parsed === null || cardName(parsed) !== name) return `${where}: ${JSON.stringify(name)} is not a card`;
    if (!inDeck(deck, parsed)) return `${where}: ${name} is not in this game's deck`;
    return null;
  };
  switch (type) {
    case 'HandDealt': {
      const deal = payload.deal as Record<string, string[]> | undefined;
      if (!deal) return null;
      const seen = new Set<string>();
      for (const seat of SEATS) {
        for (const name of deal[seat]!) {
          const problem = card(name, `game ${gameId} hand ${String(payload.hand)} ${seat}'s deal`);
          if (problem) return problem;
          if (seen.has(name)) return `game ${gameId} hand ${String(payload.hand)}: ${name} is dealt twice`;
          seen.add(name);
        }
      }
      return null;
    }
    case 'CardPlayed':
      return card(payload.card, `game ${gameId} hand ${String(payload.hand)} ${String(payload.seat)}`);
    case 'BidMade':
      return parseBid(payload.bid) === null
        ? `game ${gameId} hand ${String(payload.hand)} ${String(payload.seat)}: ${JSON.stringify(payload.bid)} is not a bid`
        : null;
    default:
      return null;
  }
}
