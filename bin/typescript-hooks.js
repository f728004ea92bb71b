// Module hooks that compile the project's TypeScript (and TSX views) as Node loads it, with
// esbuild: types are stripped, JSX goes to hono's runtime, and an inline source map keeps
// stack traces on the TypeScript lines. Nothing is written to disk.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { transform } from 'esbuild';

const LOADERS = { '.ts': 'ts', '.tsx': 'tsx', '.mts': 'ts' };

export async function load(url, context, nextLoad) {
  const extension = url.startsWith('file:') ? /\.[cm]?tsx?$/.exec(new URL(url).pathname)?.[0] : undefined;
  const loader = extension && LOADERS[extension];
  if (!loader) return nextLoad(url, context);
  const path = fileURLToPath(url);
  const { code } = await transform(await readFile(path, 'utf8'), {
    loader,
    format: 'esm',
    target: `node${process.versions.node}`,
    sourcefile: path,
    sourcemap: 'inline',
    jsx: 'automatic',
    jsxImportSource: 'hono/jsx',
    tsconfigRaw: { compilerOptions: { verbatimModuleSyntax: true } },
  });
  return { format: 'module', source: code, shortCircuit: true };
}
