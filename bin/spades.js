#!/usr/bin/env node
// The `spades` command. TypeScript sources are compiled as they load (see typescript.js), so
// `npx spades` works straight after `npm install` with no build step. The server, which runs
// for hours, starts from the whole program compiled once into one module instead (compiled.js):
// the loading hooks' own thread would hold tens of megabytes for as long as it runs.
import { compiledEntry } from './compiled.js';
import { registerTypeScript } from './typescript.js';

const args = process.argv.slice(2);
const compiled = args[0] === 'serve' ? await compiledEntry('server/cli/main.ts', 'spades-cli') : null;
let main;
if (compiled) {
  process.setSourceMapsEnabled(true);
  ({ main } = await import(compiled));
} else {
  registerTypeScript();
  ({ main } = await import('../server/cli/main.ts'));
}
process.exitCode = await main(args);
