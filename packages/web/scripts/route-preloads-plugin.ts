import path from 'node:path';
import type { Plugin, Rolldown } from 'vite';
import type { RoutePreload } from '../src/app/route-preloads.js';

export const routePreloadsFile = 'route-preloads.json';

type OutputChunk = Rolldown.OutputChunk;

const chunksOf = (bundle: Rolldown.OutputBundle): OutputChunk[] =>
  Object.values(bundle).filter((output): output is OutputChunk => output.type === 'chunk');

// The file names a chunk loads statically, itself included.
const closure = (byName: Map<string, OutputChunk>, start: OutputChunk): Set<string> => {
  const seen = new Set<string>();
  const visit = (chunk: OutputChunk): void => {
    if (seen.has(chunk.fileName)) return;
    seen.add(chunk.fileName);
    for (const name of chunk.imports) {
      const imported = byName.get(name);
      if (imported) visit(imported);
    }
  };
  visit(start);
  return seen;
};

// Writes route-preloads.json (see src/app/route-preloads.ts): per URL pattern, the chunks of its
// route modules that the entry does not already load. Fails the build when a module of the table
// is not a chunk of its own (renamed, or no longer lazily loaded).
export const routePreloadsPlugin = (root: string, table: readonly RoutePreload[]): Plugin => ({
  name: 'flotilla-route-preloads',
  apply: 'build',
  generateBundle(_options, bundle) {
    const chunks = chunksOf(bundle);
    const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
    const entry = chunks.find((chunk) => chunk.isEntry);
    if (!entry) this.error('route preloads: the bundle has no entry chunk');
    const initial = closure(byName, entry);
    const byModule = new Map(
      chunks.flatMap((chunk) => (chunk.facadeModuleId ? [[chunk.facadeModuleId, chunk]] : [])),
    );
    const routes = table.map((route) => {
      const files = new Set<string>();
      for (const module of route.modules) {
        const chunk = byModule.get(path.resolve(root, module));
        if (!chunk) this.error(`route preloads: ${module} is not a chunk of the build`);
        for (const file of closure(byName, chunk)) if (!initial.has(file)) files.add(`/${file}`);
      }
      return { pattern: route.pattern, files: [...files] };
    });
    this.emitFile({ type: 'asset', fileName: routePreloadsFile, source: JSON.stringify(routes) });
  },
});
