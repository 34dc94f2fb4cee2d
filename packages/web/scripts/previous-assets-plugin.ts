import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Plugin } from 'vite';
import { type Generation, isGenerationList, planCarryOver } from './previous-assets.js';

// Where the list of carried generations is kept between builds (never served: a dot-directory).
const ledgerFile = path.join('.vite', 'previous-assets.json');
// Source maps are for debugging the current build only; carrying them would triple dist.
const carried = (file: string): boolean => !file.endsWith('.map');

// Keeps the chunks of earlier builds in dist/assets (see previous-assets.ts for which). Vite
// empties dist before writing, so the files are read into memory when the build starts and
// written back beside the new bundle at the end.
export const previousAssetsPlugin = (now: () => Date = () => new Date()): Plugin => {
  let outDir = '';
  let kept = new Map<string, Buffer>();
  let generations: Generation[] = [];
  return {
    name: 'flotilla-previous-assets',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async buildStart() {
      kept = new Map();
      generations = [];
      const assets = path.join(outDir, 'assets');
      if (!existsSync(assets)) return;
      for (const name of await readdir(assets)) {
        const file = `assets/${name}`;
        if (carried(file)) kept.set(file, await readFile(path.join(outDir, file)));
      }
      const ledger = path.join(outDir, ledgerFile);
      if (existsSync(ledger)) {
        const parsed: unknown = JSON.parse(await readFile(ledger, 'utf8'));
        generations = isGenerationList(parsed) ? parsed : [];
      }
    },
    async writeBundle(_options, bundle) {
      const newFiles = new Set(
        Object.keys(bundle).flatMap((file) => [file, `${file}.br`, `${file}.gz`]),
      );
      const plan = planCarryOver({
        presentFiles: [...kept.keys()],
        generations,
        newFiles,
        now: now(),
      });
      await mkdir(path.join(outDir, 'assets'), { recursive: true });
      for (const file of plan.carry) {
        const content = kept.get(file);
        if (content) await writeFile(path.join(outDir, file), content);
      }
      await mkdir(path.join(outDir, '.vite'), { recursive: true });
      await writeFile(path.join(outDir, ledgerFile), JSON.stringify(plan.generations, null, 2));
      kept = new Map();
    },
  };
};
