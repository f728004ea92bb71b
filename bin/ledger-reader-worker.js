// A worker thread's entry: the TypeScript loader first (a worker starts with Node's own), then
// the ledger reader (server/audit/ledger-reader-worker.ts).
import { registerTypeScript } from './typescript.js';

registerTypeScript();
await import('../server/audit/ledger-reader-worker.ts');
