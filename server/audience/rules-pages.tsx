/**
 * The rules in force at each event (`/tournaments/:id/rules`), written from the options its games
 * are scored with, and the rule options' help page (`/help/rule-options`) from docs/rule-options.md.
 */
import { Hono } from 'hono';
import { rulesSheet } from '../../engine/rules-sheet.ts';
import { tournamentById } from '../../events/lookup.ts';
import type { ServedLedger } from '../../events/store/served-ledger.ts';
import { HelpPage } from '../../views/help-page.tsx';
import { RULE_OPTIONS_DOC } from '../http/rule-options-doc.ts';
import { Layout } from '../../views/layout.tsx';
import { NotFoundPage } from '../../views/not-found.tsx';
import { RulesSheetPage } from '../../views/rules-sheet.tsx';
import { rulebookName } from '../../engine/structures.ts';
import { tournamentLinks } from '../../events/addresses.ts';

export function rulesPages(ledger: ServedLedger) {
  const app = new Hono();
  app.get('/tournaments/:tournamentId/rules', (c) => {
    const id = c.req.param('tournamentId');
    const state = tournamentById(ledger.models, id);
    if (!state) return c.html(String(NotFoundPage({ message: `Tournament ${id} does not exist.`, path: c.req.path })), 404);
    const t = state.model;
    const sheet = rulesSheet(t.format, state.format);
    return c.html(
      String(
        <Layout title={`Rules · ${t.name}`}>
          <RulesSheetPage name={t.name} rulebook={rulebookName(t.format, state.format)} sheet={sheet} home={tournamentLinks(id).home} />
        </Layout>,
      ),
    );
  });
  app.get('/help/rule-options', (c) =>
    c.html(
      String(
        <Layout title="Rule options">
          <HelpPage markdown={RULE_OPTIONS_DOC} />
        </Layout>,
      ),
    ),
  );
  return app;
}
