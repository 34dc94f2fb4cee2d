import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { agentPackagePath } from '@flotilla/shared/agent/agent-package';
import type { FastifyInstance } from 'fastify';

// The agent as one npm package (scripts/build-agent-package.mjs, run by `npm run build`); the
// same relative path from src/ and dist/.
export const defaultAgentPackageFile = fileURLToPath(
  new URL('../../../../agent/dist/flotilla-agent.tgz', import.meta.url),
);

type Packed = { mtimeMs: number; size: number; body: Buffer; etag: string };

const isMissing = (error: unknown): boolean =>
  error instanceof Error && 'code' in error && (error.code === 'ENOENT' || error.code === 'EISDIR');

const etagMatches = (header: string | undefined, etag: string): boolean =>
  header !== undefined &&
  header.split(',').some((candidate) => {
    const tag = candidate.trim();
    return tag === '*' || tag === etag || tag === `W/${etag}`;
  });

// GET /agent/flotilla-agent.tgz: the agent package a device installs with
// `npx --yes <server>/agent/flotilla-agent.tgz --config config.json`. The URL stays the same
// across upgrades, so clients revalidate (no-cache) with the content's ETag.
export const registerAgentPackage = (
  app: FastifyInstance,
  file: string = defaultAgentPackageFile,
): void => {
  let cached: Packed | null = null;
  // Read once per build of the file; a rebuild (new mtime or size) is picked up.
  const load = async (): Promise<Packed | null> => {
    let info;
    try {
      info = await stat(file);
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
    if (!info.isFile()) return null;
    if (cached?.mtimeMs === info.mtimeMs && cached.size === info.size) return cached;
    const body = await readFile(file);
    const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
    cached = { mtimeMs: info.mtimeMs, size: info.size, body, etag };
    return cached;
  };

  app.get(agentPackagePath, { config: { access: 'public' } }, async (request, reply) => {
    const packed = await load();
    if (!packed) {
      return reply
        .status(404)
        .type('text/plain; charset=utf-8')
        .send(
          'The agent package is not built. Run `npm run build` (or `npm start`) from the repository root.',
        );
    }
    void reply
      .header('Cache-Control', 'no-cache')
      .header('ETag', packed.etag)
      .header('Content-Disposition', 'attachment; filename="flotilla-agent.tgz"');
    if (etagMatches(request.headers['if-none-match'], packed.etag)) {
      return reply.status(304).send();
    }
    return reply.type('application/gzip').send(packed.body);
  });
};
