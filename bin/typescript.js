// Lets Node load the project's TypeScript directly, so `npx spades`, `npm start` and the
// benchmarks need no build step. The code is compiled as written: no helper wraps each
// function (as keep-names compilers do), which would cost the hot folds real time.
import { register } from 'node:module';

export function registerTypeScript() {
  process.setSourceMapsEnabled(true);
  register('./typescript-hooks.js', import.meta.url);
}
