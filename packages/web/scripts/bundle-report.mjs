// Prints the gzip size of the console's initial JavaScript and of every lazily loaded chunk,
// and fails the build when the initial JavaScript exceeds the budget (issue: 180 kB gzip).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const budgetBytes = 180 * 1024;
const dist = path.resolve(import.meta.dirname, '..', 'dist');
const manifest = JSON.parse(readFileSync(path.join(dist, '.vite', 'manifest.json'), 'utf8'));
const gzipSize = (file) => gzipSync(readFileSync(path.join(dist, file))).length;
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} kB`;

const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry);
const initial = new Set();
const visit = (key) => {
  const chunk = manifest[key];
  if (!chunk || initial.has(chunk.file)) return;
  initial.add(chunk.file);
  for (const imported of chunk.imports ?? []) visit(imported);
};
visit(entryKey);
const initialBytes = [...initial].reduce((sum, file) => sum + gzipSize(file), 0);

console.log(`Initial JavaScript: ${kb(initialBytes)} gzip (budget ${kb(budgetBytes)})`);
for (const file of initial) console.log(`  ${file}  ${kb(gzipSize(file))}`);
console.log('Route chunks (loaded on demand):');
for (const chunk of Object.values(manifest)) {
  if (!chunk.isDynamicEntry) continue;
  console.log(`  ${chunk.name ?? chunk.file}  ${kb(gzipSize(chunk.file))}`);
}
if (initialBytes > budgetBytes) {
  console.error(
    `The initial JavaScript (${kb(initialBytes)}) is over the ${kb(budgetBytes)} budget.`,
  );
  process.exit(1);
}

// Development builds of dependencies must not reach the console (vite.config.ts aliases React
// Router's production build): the source maps name every bundled module.
for (const chunk of Object.values(manifest)) {
  const map = path.join(dist, `${chunk.file}.map`);
  let sources = [];
  try {
    sources = JSON.parse(readFileSync(map, 'utf8')).sources ?? [];
  } catch {
    continue; // CSS and other assets have no source map.
  }
  const development = sources.find((source) => /react-router\/dist\/development\//.test(source));
  if (development) {
    console.error(`${chunk.file} bundles a development build: ${development}`);
    process.exit(1);
  }
  // MUI's eager number formatter is replaced by a lazy one (scripts/lazy-number-format-plugin.ts).
  const eagerFormat = sources.find((source) =>
    /@mui\/material\/locale\/utils\/buildFormatNumber/.test(source),
  );
  if (eagerFormat) {
    console.error(`${chunk.file} bundles MUI's eager number formatter: ${eagerFormat}`);
    process.exit(1);
  }
}
