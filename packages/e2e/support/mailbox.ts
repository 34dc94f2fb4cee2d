import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { SavedMail } from './mail-catcher.js';
import { expect, inject } from 'vitest';

// The mail the test server sent through SMTP, as the test SMTP server of the global setup
// received it (server-global-setup.ts): one JSON file per message.
const isSavedMail = (value: unknown): value is SavedMail =>
  typeof value === 'object' &&
  value !== null &&
  'to' in value &&
  Array.isArray(value.to) &&
  value.to.every((to) => typeof to === 'string') &&
  'subject' in value &&
  typeof value.subject === 'string' &&
  'text' in value &&
  typeof value.text === 'string' &&
  'html' in value &&
  typeof value.html === 'string';

const received = (): SavedMail[] => {
  const dir = inject('mailDir');
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .map((name) => {
      const mail: unknown = JSON.parse(readFileSync(path.join(dir, name), 'utf8'));
      if (!isSavedMail(mail)) throw new Error(`${name} is not a saved mail`);
      return mail;
    });
};

export type Mail = SavedMail & { links: string[] };

// The first message to `address` whose subject matches; it arrives after the sending request's
// commit (the mail dispatcher), so this waits for it.
export const mailTo = async (address: string, subject: RegExp = /./): Promise<Mail> => {
  let found: SavedMail | undefined;
  await expect
    .poll(
      () => {
        found = received().find(
          (mail) =>
            mail.to.some((to) => to.toLowerCase() === address.toLowerCase()) &&
            subject.test(mail.subject),
        );
        return found !== undefined;
      },
      { timeout: 20_000, interval: 50 },
    )
    .toBe(true);
  if (!found) throw new Error(`no mail to ${address}`);
  return { ...found, links: found.text.match(/https?:\/\/[^\s<>"]+/g) ?? [] };
};
