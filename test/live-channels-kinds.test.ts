/**
 * The live pages' publisher shares the broadcaster with the event feed, whose channel for one
 * tournament (`events:<id>`) names no page: it must be left alone, not drawn as a page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channelOf, createLivePublisher, livePartials } from '../server/app/live-channels.tsx';
import { tournamentChannel } from '../server/live/event-stream.ts';
import { type Fixture, copyOf, makeFixture } from './routes-fixture.ts';

let fixture: Fixture;
beforeAll(async () => {
  fixture = await makeFixture();
});
afterAll(() => fixture?.close());

describe('channels that are not pages', () => {
  it('have no regions, and a change to their tournament publishes only to its pages', async () => {
    const { ledger } = copyOf(fixture);
    const models = ledger.models;
    expect(livePartials(tournamentChannel('t1'), models)).toBeNull();
    expect(livePartials('no-such-kind:t1', models)).toBeNull();
    const published: string[] = [];
    const channels = [tournamentChannel('t1'), channelOf('leaderboard', 't1')];
    const publisher = createLivePublisher(
      {
        channels: () => channels,
        hasClients: () => true,
        publish: (channel) => void published.push(channel),
        drop: () => undefined,
        attach: () => () => undefined,
      },
      models,
    );
    // twice, so a region stored for the feed's channel the first time would be read back the second
    for (let i = 0; i < 2; i++) {
      publisher.changed({ games: [], tournaments: ['t1'] });
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    expect(published).toEqual([channelOf('leaderboard', 't1')]);
    ledger.close();
  });
});
