import { cp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { defaultConsoleDir } from '@flotilla/server/features/console/register-console';
import { inject } from 'vitest';

// The copy of the built console the test server serves (server-global-setup.ts).
export const servedConsoleDir = (): string => inject('consoleDir');

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// Turns the served console into "the next build": every JavaScript file gets a new name (as a
// new build's content hashes would), and every reference to it, in index.html and in the chunks
// that import each other, follows. `keepPrevious` leaves the old files beside the new ones, as
// the build's previous-assets plugin does; without it they are gone, as after a fresh install.
export const simulateNextBuild = async (options: { keepPrevious: boolean }): Promise<void> => {
  const root = servedConsoleDir();
  const assets = path.join(root, 'assets');
  const scripts = (await readdir(assets)).filter((name) => name.endsWith('.js'));
  const renamed = new Map(scripts.map((name) => [name, name.replace(/\.js$/, '-next.js')]));
  const names = new RegExp(
    [...renamed.keys()]
      .sort((a, b) => b.length - a.length)
      .map(escape)
      .join('|'),
    'g',
  );
  const rewrite = (text: string): string =>
    text.replace(names, (name) => renamed.get(name) ?? name);
  for (const [name, next] of renamed) {
    const source = await readFile(path.join(assets, name), 'utf8');
    await writeFile(path.join(assets, next), rewrite(source));
    if (!options.keepPrevious) {
      for (const file of [name, `${name}.br`, `${name}.gz`, `${name}.map`]) {
        await rm(path.join(assets, file), { force: true });
      }
    }
  }
  const index = path.join(root, 'index.html');
  await writeFile(index, rewrite(await readFile(index, 'utf8')));
  for (const file of ['index.html.br', 'index.html.gz']) {
    await rm(path.join(root, file), { force: true });
  }
};

// Puts the built console back as it was before simulateNextBuild.
export const restoreConsole = async (): Promise<void> => {
  const root = servedConsoleDir();
  await rm(root, { recursive: true, force: true });
  await cp(defaultConsoleDir, root, { recursive: true });
};
