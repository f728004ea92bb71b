#!/usr/bin/env node
// Runs a TypeScript entry point, compiled as it loads (see typescript.js), so nothing has to be built first.
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { registerTypeScript } from './typescript.js';

registerTypeScript();
const [entry, ...rest] = process.argv.slice(2);
process.argv = [process.argv[0], entry, ...rest];
await import(pathToFileURL(resolve(entry)).href);
