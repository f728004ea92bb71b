/**
 * Table join codes: the code printed on a table's card makes whoever types it that table's
 * scorekeeper. A code is 10 characters from a 31-letter alphabet (about 50 bits), derived from
 * the secret kept with the accounts, so printing twice gives the same code; a director can
 * rotate a table's code, which also ends the sessions joined with the old one. At the join limits of
 * rate-limits.ts (60 wrong a minute over the server) a guess would take millions of years.
 */
import { seatedAtTables } from '../../engine/format-play.ts';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { tournamentById } from '../../events/lookup.ts';
import type { ReadModels } from '../../events/projections.ts';
import type { GameModel } from '../../events/read-models.ts';
import type { TableCodeStore } from './storage/auth-storage.ts';
import { accountOfTable } from './sessions.ts';

// No 0/O, 1/I/L: a code is read off paper and typed on a phone.
const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const CODE_LENGTH = 10;

/** The join code of a tournament's table after `rotation` rotations (0: as first printed). */
export function tableCode(secret: string, tournamentId: string, table: number, rotation = 0): string {
  return secretCode(secret, `table:${tournamentId}:${table}:${rotation}`);
}

/**
 * An entrant's check-in code: made like a table's from the secret, over the random seed its
 * registration recorded, so the ledger (public) holds nothing a guess could be checked against.
 */
export function checkInCode(secret: string, tournamentId: string, teamId: string, codeSeed = ''): string {
  return secretCode(secret, `check-in:${JSON.stringify([tournamentId, teamId, codeSeed])}`);
}

/** A new check-in code's random seed (96 bits), recorded with the registration. */
export function newCodeSeed(): string {
  return randomBytes(12).toString('base64url');
}

/** Whether a typed code is an entrant's check-in code (case, spaces and dashes aside). */
export function isCheckInCode(secret: string, tournamentId: string, teamId: string, codeSeed: string | undefined, typed: string): boolean {
  const wanted = typed.toUpperCase().replace(/[^A-Z0-9]/g, '');
  const code = checkInCode(secret, tournamentId, teamId, codeSeed);
  return wanted.length === code.length && timingSafeEqual(Buffer.from(wanted), Buffer.from(code));
}

/** A code of CODE_LENGTH characters made from the secret over `text`. */
function secretCode(secret: string, text: string): string {
  const digest = createHmac('sha256', secret).update(text).digest();
  // Each character from 16 bits of the digest: the bias of the modulo is a few parts in a million.
  let code = '';
  for (let i = 0; i < CODE_LENGTH; i++) code += CODE_ALPHABET[digest.readUInt16BE(2 * i) % CODE_ALPHABET.length];
  return code;
}

/** How many tables a tournament uses: one per pair of teams, or more if a match was seated higher. */
export function tableCount(models: ReadModels, tournamentId: string): number {
  const state = tournamentById(models, tournamentId);
  if (!state) return 0;
  const tournament = state.model;
  const seated = Math.max(0, ...tournament.matches.map((m) => m.table ?? 0));
  // A progressive evening seats four players a table, the extras sitting out; a bracket two teams a table.
  if (seatedAtTables(state.format)) return Math.max(seated, Math.floor(tournament.teams.filter((t) => t.status !== 'withdrawn').length / 4));
  return Math.max(seated, Math.ceil(tournament.teams.length / 2));
}

/** A table's rotation count, 0 when its code was never rotated. */
export type RotationOf = (tournamentId: string, table: number) => number;

/** The table a code names, among the tournaments still being played. */
export function findTable(secret: string, models: ReadModels, code: string, rotationOf: RotationOf = () => 0): { tournamentId: string; table: number } | null {
  const wanted = code.toUpperCase().replace(/[^A-Z0-9]/g, '');
  if (wanted.length !== CODE_LENGTH) return null;
  for (const state of Object.values(models.tournaments)) {
    if (state.model.status === 'finished') continue;
    const id = state.model.tournamentId;
    for (let table = 1; table <= tableCount(models, id); table++) {
      if (tableCode(secret, id, table, rotationOf(id, table)) === wanted) return { tournamentId: id, table };
    }
  }
  return null;
}

/** The table a game is being played at, when it is one of a tournament's matches. */
export function tableOfGame(models: ReadModels, game: GameModel): number | null {
  if (!game.tournamentId || !game.matchId) return null;
  return tournamentById(models, game.tournamentId)?.model.matches.find((m) => m.matchId === game.matchId)?.table ?? null;
}

/** The table codes kept in `store`: each table's current code, and rotating it. */
export function openTableCodes(store: TableCodeStore, secret: string) {
  /** The rotation counts of one tournament's tables, or of every tournament's. */
  const rotations = async (tournamentId?: string): Promise<RotationOf> => {
    const counts = new Map((await store.rotations(tournamentId)).map((r) => [JSON.stringify([r.tournamentId, r.table]), r.rotation]));
    return (id, table) => counts.get(JSON.stringify([id, table])) ?? 0;
  };
  return {
    /** The code printed on a table's card now. */
    codeOf: async (tournamentId: string, table: number): Promise<string> =>
      tableCode(secret, tournamentId, table, (await rotations(tournamentId))(tournamentId, table)),
    /** The codes printed now on the cards of a tournament's tables 1 to `tables`. */
    async codesOf(tournamentId: string, tables: number): Promise<string[]> {
      const rotationOf = await rotations(tournamentId);
      return Array.from({ length: tables }, (_, i) => tableCode(secret, tournamentId, i + 1, rotationOf(tournamentId, i + 1)));
    },
    /** The table a code names, among the tournaments still being played. */
    find: async (models: ReadModels, code: string) => findTable(secret, models, code, await rotations()),
    /** Gives a table a new code; whoever joined with the old one is signed out. Returns the new code. */
    rotate: async (tournamentId: string, table: number): Promise<string> =>
      tableCode(secret, tournamentId, table, await store.rotate(tournamentId, table, accountOfTable(tournamentId, table))),
  };
}
