import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

// MUI's TablePagination builds an `Intl.NumberFormat` when its module is evaluated, and every
// lazily used MUI module is evaluated with the shared 'mui' chunk (vite.config.ts), so the fleet
// list paid for it without showing a table: the first `Intl` use of a page initialises ICU,
// ~15–50 ms of main thread in the cold-load bench's CPU profile. The console's build gives MUI a
// formatter that is built on first use instead (src/ui/lazy-format-number.ts).
const lazyFormatNumber = fileURLToPath(new URL('../src/ui/lazy-format-number.ts', import.meta.url));

export const lazyNumberFormatPlugin = (): Plugin => ({
  name: 'flotilla-lazy-number-format',
  apply: 'build',
  enforce: 'pre',
  resolveId(source, importer) {
    if (!importer || !/[\\/]@mui[\\/]material[\\/]/.test(importer)) return null;
    return /(^|\/)locale\/utils\/buildFormatNumber(\.mjs|\.js)?$/.test(source)
      ? lazyFormatNumber
      : null;
  },
});
