import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

// The console's imports between feature folders (packages/web/src/features/<name>/), read with
// the TypeScript compiler's own import scanner, so the floor's claims (no cycles, few and
// listed feature-to-feature imports) are counted rather than believed.

export type FeatureImport = { file: string; from: string; to: string };

const sourceFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : [];
  });

// "./a.js" names a.ts or a.tsx on disk (the console's imports carry the emitted extension).
const resolveRelative = (file: string, specifier: string): string | null => {
  const base = path.resolve(path.dirname(file), specifier);
  const stem = base.replace(/\.js$/, '');
  return (
    [`${stem}.ts`, `${stem}.tsx`, base].find(
      (candidate) => existsSync(candidate) && statSync(candidate).isFile(),
    ) ?? null
  );
};

// "features/devices/a.ts" → "devices"; null outside the feature folders.
const featureOf = (relative: string): string | null =>
  /^features\/([^/]+)\//.exec(relative.split(path.sep).join('/'))?.[1] ?? null;

// Every import (static, dynamic, re-export, `import()` type) from one feature into another.
export const featureImports = (srcDir: string): FeatureImport[] =>
  sourceFiles(srcDir).flatMap((file) => {
    const from = featureOf(path.relative(srcDir, file));
    if (from === null) return [];
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    return importedFiles.flatMap(({ fileName }) => {
      if (!fileName.startsWith('.')) return [];
      const target = resolveRelative(file, fileName);
      const to = target === null ? null : featureOf(path.relative(srcDir, target));
      return to === null || to === from ? [] : [{ file: path.relative(srcDir, file), from, to }];
    });
  });

// Import cycles between features: the strongly connected components of more than one feature
// (Tarjan's algorithm), each sorted, in a stable order.
export const featureCycles = (imports: readonly Pick<FeatureImport, 'from' | 'to'>[]) => {
  const edges = new Map<string, Set<string>>();
  for (const { from, to } of imports) {
    edges.set(from, (edges.get(from) ?? new Set()).add(to));
    if (!edges.has(to)) edges.set(to, new Set());
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node) ?? 0);
    stack.push(node);
    onStack.add(node);
    for (const next of edges.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(next) ?? 0));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node) ?? 0, index.get(next) ?? 0));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop();
      if (member !== undefined) {
        onStack.delete(member);
        component.push(member);
      }
    } while (member !== undefined && member !== node);
    if (component.length > 1) cycles.push(component.sort());
  };
  for (const node of [...edges.keys()].sort()) if (!index.has(node)) visit(node);
  return cycles.sort((a, b) => (a[0] ?? '').localeCompare(b[0] ?? ''));
};
