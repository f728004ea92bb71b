#!/usr/bin/env node
// The `spades` command. TypeScript sources are compiled as they load (see typescript.js), so
// `npx spades` works straight after `npm install` with no build step.
import { registerTypeScript } from './typescript.js';

registerTypeScript();
const { main } = await import('../server/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
