import { escapeHtml } from './mail-compose.js';

// What replaces a link in a message that no longer needs it.
export const redactedLink = '[link removed after delivery]';

// The body without the message's links, as written in text and in HTML: what the outbox keeps
// of a message SMTP delivered, so that a reset, verification or invitation link at rest (a
// backup, a database dump) cannot be used.
export const redactLinks = (body: string, links: readonly string[]): string => {
  let redacted = body;
  // The longest first: a link that starts with a shorter one is removed whole.
  for (const link of [...links].sort((a, b) => b.length - a.length)) {
    if (link === '') continue;
    for (const form of new Set([link, escapeHtml(link)])) {
      redacted = redacted.split(form).join(redactedLink);
    }
  }
  return redacted;
};
