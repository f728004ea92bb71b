/**
 * `npm start -- --demo progressive`: the 12-player progressive evening the server sets up, and
 * the bots that seat each round as the last ends and play it to the end, as the server's timer
 * would. The venue screen shows where to sit for the round seated.
 */
import { describe, expect, it } from 'vitest';
import { PROGRESSIVE_DEMO, createDemo } from '../server/serve/serve.ts';
import { driveTables } from '../server/serve/table-driver.ts';
import { createApp } from '../server/app/app.ts';
import { tempLedger } from './tournament-ledger.ts';

describe('the progressive demo', () => {
  it('sets up 12 players in 4 rounds, and its bots seat and play every round to a winner', async () => {
    const ledger = tempLedger();
    await createDemo(ledger, 'progressive');
    await createDemo(ledger, 'progressive');
    const state = () => ledger.models.tournaments[PROGRESSIVE_DEMO]!;
    expect(state().model.teams).toHaveLength(12);
    expect(state().model.status).toBe('running');
    expect(state().format.rounds).toBe(4);
    let steps = 0;
    while ((await driveTables(ledger, { tournamentId: PROGRESSIVE_DEMO, seed: 'progressive-demo' })) > 0) {
      if (++steps === 1) {
        const html = await (await createApp({ ledger }).app.request('/screen')).text();
        expect(html).toContain('Round 1 of 4: where everyone sits');
        expect(html.match(/class="sit-row"/g)).toHaveLength(12);
      }
      if (steps > 20_000) throw new Error('the demo did not finish');
    }
    expect(state().progressive!.rounds).toHaveLength(4);
    expect(state().model.status).toBe('finished');
    expect(state().model.prizes!.map((p) => p.prize)).toEqual(expect.arrayContaining(['High player', 'High male', 'High female']));
    ledger.close();
  }, 120_000);
});
