import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { interact } from 'balena-image-fs';
import { FileDisk } from 'file-disk';
import { badRequest } from '../../infra/errors/api-error.js';

// OS images are disk images (`.img`): a partition table whose first partition is the FAT boot
// partition, where balenaOS (and balena-cli's `os configure`) keep config.json.
export const bootPartition = 1;

// The largest image the server keeps (balenaOS images are 0.5 to 2 GiB unpacked).
export const osImageMaxBytes = 8 * 1024 * 1024 * 1024;

export const osImageDirectory = (dataDir: string): string => path.join(dataDir, 'os-images');

export const osImagePath = (dataDir: string, file: string): string =>
  path.join(osImageDirectory(dataDir), file);

export type StoredImageFile = { file: string; size: number; sha256: string };

const tooLarge = () =>
  badRequest(`The image is larger than ${osImageMaxBytes / 1024 / 1024 / 1024} GiB`);

// Reads the boot partition's root folder: a file that is no disk image with a FAT boot partition
// is refused before it is kept.
const checkBootPartition = async (file: string): Promise<void> => {
  const handle = await open(file, 'r');
  try {
    await interact(new FileDisk(handle, true, true), bootPartition, async (fs) => {
      await new Promise<void>((resolve, reject) =>
        fs.readdir('/', (error) => (error ? reject(error) : resolve())),
      );
    });
  } catch {
    throw badRequest(
      'The file is not a disk image whose first partition is a FAT boot partition (upload the unpacked .img)',
    );
  } finally {
    await handle.close();
  }
};

// Streams an image to the data directory (a temporary name, checked, then renamed), counting its
// size and SHA-256 on the way; nothing of it stays when it is refused.
export const storeImageStream = async (
  dataDir: string,
  source: Readable,
): Promise<StoredImageFile> => {
  const file = randomBytes(16).toString('hex');
  await mkdir(osImageDirectory(dataDir), { recursive: true });
  const target = osImagePath(dataDir, file);
  const partial = `${target}.partial`;
  const hash = createHash('sha256');
  let size = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (size > osImageMaxBytes) {
        done(tooLarge());
        return;
      }
      hash.update(chunk);
      done(null, chunk);
    },
  });
  try {
    await pipeline(source, counter, createWriteStream(partial));
    if (size === 0) throw badRequest('The image is empty');
    await checkBootPartition(partial);
    await rename(partial, target);
    return { file, size, sha256: hash.digest('hex') };
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
};

export const removeImageFile = async (dataDir: string, file: string): Promise<void> => {
  if (!/^[0-9a-f]{32}$/.test(file)) return;
  await rm(osImagePath(dataDir, file), { force: true });
};

// The image with config.json written into its boot partition, as a stream of its bytes. The
// stored file is opened read-only and the writes are kept in memory (file-disk's copy-on-write
// mode: a few FAT sectors), so the image is never copied nor read whole into memory.
export const configuredImageStream = async (
  dataDir: string,
  file: string,
  config: unknown,
): Promise<{ stream: Readable; size: number }> => {
  const handle = await open(osImagePath(dataDir, file), 'r');
  try {
    const disk = new FileDisk(handle, true, true);
    await interact(disk, bootPartition, async (fs) => {
      await new Promise<void>((resolve, reject) =>
        fs.writeFile('/config.json', `${JSON.stringify(config, null, 2)}\n`, (error) =>
          error ? reject(error) : resolve(),
        ),
      );
    });
    const size = await disk.getCapacity();
    const stream = await disk.getStream();
    const closeFile = () => void handle.close().catch(() => undefined);
    stream.once('close', closeFile);
    return { stream, size };
  } catch (error) {
    await handle.close();
    throw error;
  }
};
