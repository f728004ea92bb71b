#!/usr/bin/env node
// The `spades` command. TypeScript sources are loaded through tsx, so `npx spades` works
// straight after `npm install` with no build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../server/cli.ts');
process.exitCode = await main(process.argv.slice(2));
