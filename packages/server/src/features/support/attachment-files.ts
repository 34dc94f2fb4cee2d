import { randomBytes } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';

// Attachment bytes live in the data directory like release assets (written under a temporary
// name, then renamed), so a backup carries them with the rows that name them.
export const attachmentDirectory = (dataDir: string): string =>
  path.join(dataDir, 'support-attachments');

export const isFileUuid = (value: string): boolean => /^[0-9a-f]{32}$/.test(value);

export const attachmentPath = (dataDir: string, uuid: string): string =>
  path.join(attachmentDirectory(dataDir), uuid);

export const writeAttachmentFile = async (dataDir: string, bytes: Buffer): Promise<string> => {
  const uuid = randomBytes(16).toString('hex');
  await mkdir(attachmentDirectory(dataDir), { recursive: true });
  const target = attachmentPath(dataDir, uuid);
  await writeFile(`${target}.partial`, bytes);
  await rename(`${target}.partial`, target);
  return uuid;
};

// The href of a stored attachment: its uuid is the capability (an <a> cannot send the bearer
// token), shown only to those who may read the ticket.
export const attachmentHref = (origin: string, uuid: string, fileName: string): string =>
  `${origin}/support/v1/attachments/${uuid}/${encodeURIComponent(fileName)}`;
