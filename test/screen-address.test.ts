/**
 * `/screen?t=<id>`: a screen held to the tournament its address names, whatever a director
 * pins, its live stream too; an unknown id is a 404 page with a sentence. The director's page
 * names the address where it explains the venue screen.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Fixture, copyOf, makeFixture, send } from './routes-fixture.ts';

let fixture: Fixture;
beforeAll(async () => {
  fixture = await makeFixture();
});
afterAll(() => fixture?.close());

const screenTitle = (html: string) => /<h1 class="screen-title">([^<]*)<\/h1>/.exec(html)?.[1];

/** The first chunks of a stream, until `enough` says so (or a second passes), then the stream is cancelled. */
async function firstChunks(res: Response, enough: (text: string) => boolean): Promise<string> {
  const reader = res.body!.getReader();
  let text = '';
  const deadline = Date.now() + 1000;
  while (!enough(text) && Date.now() < deadline) {
    const next = await Promise.race([reader.read(), new Promise<null>((r) => setTimeout(() => r(null), 200))]);
    if (next === null) continue;
    if (next.done) break;
    text += new TextDecoder().decode(next.value);
  }
  await reader.cancel();
  return text;
}

describe('a screen held to one tournament by its address', () => {
  it('shows the tournament named in ?t= whatever is pinned, and its stream follows the same choice', async () => {
    const { ledger, app, broadcaster } = copyOf(fixture);
    try {
      // Spring Cup is pinned; a TV on /screen?t=t2 shows Autumn Open all the same.
      expect((await send(app, fixture.clients.director, 'POST', '/director/tournaments/t1/screen', { form: {} })).status).toBe(303);
      expect(screenTitle(await (await app.request('/screen')).text())).toBe('Spring Cup');
      const page = await app.request('/screen?t=t2');
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(screenTitle(html)).toBe('Autumn Open');
      // Its stream is the venue address's, carrying the same choice; no pin marker to reload on.
      expect(html).toContain(`hx-sse:connect="/screen/stream?t=t2&amp;after=${ledger.models.position}"`);
      expect(html).not.toContain('id="screen-pin"');

      // A later pin moves /screen, not /screen?t=t2.
      expect((await send(app, fixture.clients.director, 'POST', '/director/tournaments/t2/screen', { form: {} })).status).toBe(303);
      await send(app, fixture.clients.director, 'POST', '/director/tournaments/t1/screen', { form: {} });
      expect(screenTitle(await (await app.request('/screen')).text())).toBe('Spring Cup');
      expect(screenTitle(await (await app.request('/screen?t=t2')).text())).toBe('Autumn Open');

      // The stream of /screen?t=t2 sends Autumn Open's regions, not the pinned Spring Cup's.
      const stream = await app.request('/screen/stream?t=t2&after=0');
      expect(stream.status).toBe(200);
      expect(stream.headers.get('content-type')).toContain('text/event-stream');
      const sent = await firstChunks(stream, (t) => t.includes('Deuces'));
      expect(sent).toContain('Deuces');
      expect(sent).not.toContain('Aces');
      expect(sent).not.toContain('screen-pin');
    } finally {
      broadcaster.close();
      ledger.close();
    }
  });

  it('answers an unknown tournament with a 404 page, and refuses its stream', async () => {
    const { ledger, app, broadcaster } = copyOf(fixture);
    try {
      const missing = await app.request('/screen?t=nope');
      expect(missing.status).toBe(404);
      expect(await missing.text()).toContain('There is no tournament &#39;nope&#39; to show on this screen.');
      const stream = await app.request('/screen/stream?t=nope');
      expect(stream.status).toBe(404);
      expect(await stream.json()).toEqual({ error: 'tournament nope does not exist' });
    } finally {
      broadcaster.close();
      ledger.close();
    }
  });

  it('is named on the director’s page where the venue screen is explained', async () => {
    const { ledger, app, broadcaster } = copyOf(fixture);
    try {
      const html = await (await send(app, fixture.clients.director, 'GET', '/director/tournaments/t2')).text();
      const section = /<section class="screen-pin"[\s\S]*?<\/section>/.exec(html)![0];
      expect(section).toContain('<a href="/screen?t=t2">/screen?t=t2</a>');
    } finally {
      broadcaster.close();
      ledger.close();
    }
  });
});
