#!/usr/bin/env node
// The `spades` command. It starts from the whole program compiled into one module
// (compiled.js), kept between runs and compiled again only when a source has changed, so
// `npx spades` works straight after `npm install` with no build step and a command starts in
// about half the time the module hooks need to compile every module as it loads. Where the
// module cannot be written (a read-only install), the TypeScript sources are compiled as they
// load instead (see typescript.js): slower to start, the same behaviour.
import { compiledEntry } from './compiled.js';
import { registerTypeScript } from './typescript.js';

const args = process.argv.slice(2);
const compiled = await compiledEntry('server/cli/main.ts', 'spades-cli');
let main;
if (compiled) {
  process.setSourceMapsEnabled(true);
  ({ main } = await import(compiled));
} else {
  registerTypeScript();
  ({ main } = await import('../server/cli/main.ts'));
}
process.exitCode = await main(args);
