import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const srcDir = path.resolve(import.meta.dirname, '..');
const importPattern = /^\s*import\s+(?:type\s+)?(?:[^'"]*?\s+from\s+)?['"]([^'"]+)['"]/gm;

const importsOf = (file: string): { specifier: string; typeOnly: boolean }[] =>
  [...readFileSync(file, 'utf8').matchAll(importPattern)].map((match) => ({
    specifier: match[1] ?? '',
    typeOnly: /^\s*import\s+type\s/.test(match[0]),
  }));

const resolveLocal = (from: string, specifier: string): string => {
  const base = path.resolve(path.dirname(from), specifier).replace(/\.js$/, '');
  for (const candidate of [`${base}.ts`, `${base}.tsx`]) {
    try {
      readFileSync(candidate);
      return candidate;
    } catch {
      // Not this extension; try the next.
    }
  }
  throw new Error(`cannot resolve ${specifier} from ${from}`);
};

// Every package a module pulls in at run time, through its local imports.
const runtimePackages = (entry: string): Set<string> => {
  const packages = new Set<string>();
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const { specifier, typeOnly } of importsOf(file)) {
      if (typeOnly) continue;
      if (specifier.startsWith('.')) visit(resolveLocal(file, specifier));
      else packages.add(specifier);
    }
  };
  visit(entry);
  return packages;
};

describe('early start', () => {
  it('is what main.tsx imports first, so it runs before the rest of the entry', () => {
    const [first] = importsOf(path.join(srcDir, 'main.tsx'));
    expect(first?.specifier).toBe('./app/early-start.js');
  });

  it('pulls in no heavy package (React DOM, MUI, React Router) that it would wait for', () => {
    const packages = [...runtimePackages(path.join(srcDir, 'app', 'early-start.ts'))];
    expect(packages.length).toBeGreaterThan(0);
    const heavy = packages.filter((name) => /^(react-dom|@mui\/|react-router)/.test(name));
    expect(heavy).toEqual([]);
  });
});
