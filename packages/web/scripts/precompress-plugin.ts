import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

// Text files worth compressing; smaller ones gain less than a response header costs.
const compressible = /\.(js|mjs|css|html|svg|txt|json|md)$/;
const minimumBytes = 1024;

// Writes NAME.br (brotli, best quality) and NAME.gz (gzip -9) beside every text file of the
// bundle, once, at build time: the server sends the one the browser accepts (register-console.ts)
// instead of compressing the same files on every request.
export const precompressPlugin = (): Plugin => ({
  name: 'flotilla-precompress',
  apply: 'build',
  async writeBundle(options, bundle) {
    const outDir = options.dir;
    if (!outDir) return;
    const jobs = Object.values(bundle).map(async (output) => {
      if (!compressible.test(output.fileName)) return;
      const content = output.type === 'chunk' ? output.code : output.source;
      const bytes = typeof content === 'string' ? Buffer.from(content) : Buffer.from(content);
      if (bytes.length < minimumBytes) return;
      const file = path.join(outDir, output.fileName);
      const [br, gz] = await Promise.all([
        brotli(bytes, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
          },
        }),
        gzipAsync(bytes, { level: constants.Z_BEST_COMPRESSION }),
      ]);
      await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gz)]);
    });
    await Promise.all(jobs);
  },
});
