import { Header } from 'tar';
import { probeProgram } from './probe-program.js';

// The build context that tells whether an engine runs a platform's programs: an image from
// scratch whose one step runs the platform's smallest program (probe-program.ts). Its build
// succeeds only when the engine's host ran it.
const probeDockerfile = ['FROM scratch', 'COPY probe /probe', 'RUN ["/probe"]', ''].join('\n');

const entry = (path: string, mode: number, content: Buffer): Buffer => {
  const header = new Header({
    path,
    mode,
    size: content.length,
    type: 'File',
    mtime: new Date(0),
  });
  const block = Buffer.alloc(512);
  header.encode(block, 0);
  const padding = Buffer.alloc((512 - (content.length % 512)) % 512);
  return Buffer.concat([block, content, padding]);
};

// A plain tar of the context; undefined for a platform without a probe program.
export const probeContext = (platform: string): Buffer | undefined => {
  const program = probeProgram(platform);
  if (program === undefined) return undefined;
  return Buffer.concat([
    entry('Dockerfile', 0o644, Buffer.from(probeDockerfile)),
    entry('probe', 0o755, program),
    // The end of the archive: two empty blocks.
    Buffer.alloc(1024),
  ]);
};
