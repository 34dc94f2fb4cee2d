import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Rolldown } from 'vite';

type NameFunction = Rolldown.CodeSplittingNameFunction;

// Names the chunks of the lazily loaded library and shared modules that the fleet list (the
// screen most people land on) uses: a module its route modules reach through static imports goes
// in `name`, any other is left to the next group. Before, the fleet list loaded the whole MUI
// chunk (279 kB) and shared chunk (308 kB: every dialog, form rule and zod schema of the
// console), and the browser compiled and ran all of it before the cards (issue 38).
// FIRST_SCREEN_CHUNKS_REPORT=<file> writes, for each module reached, the module it was reached
// from (why the fleet list loads it).
export const firstScreenChunkName = (root: string, modules: readonly string[]) => {
  let reached: Map<string, string> | undefined;
  const reachedFrom = (ctx: Rolldown.ChunkingContext): Map<string, string> => {
    if (reached) return reached;
    const from = new Map<string, string>();
    const pending = modules.map((module) => path.resolve(root, module));
    for (const id of pending) from.set(id, '');
    for (let id = pending.shift(); id !== undefined; id = pending.shift()) {
      for (const imported of ctx.getModuleInfo(id)?.importedIds ?? []) {
        if (from.has(imported)) continue;
        from.set(imported, id);
        pending.push(imported);
      }
    }
    const report = process.env.FIRST_SCREEN_CHUNKS_REPORT;
    if (report) writeFileSync(report, JSON.stringify(Object.fromEntries(from), null, 1));
    reached = from;
    return from;
  };
  return (name: string): NameFunction =>
    (id, ctx) =>
      reachedFrom(ctx).has(id) ? name : null;
};
