import type { Plugin } from 'vite';

// Writes buildtime.txt next to the bundle: the console polls it to notice a newer deployment
// and offer a reload ("dashboard out of date").
export const buildInfoPlugin = (buildTime: string): Plugin => ({
  name: 'flotilla-build-info',
  apply: 'build',
  generateBundle() {
    this.emitFile({ type: 'asset', fileName: 'buildtime.txt', source: buildTime });
  },
});
