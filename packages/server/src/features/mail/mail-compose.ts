import type { MailMessage } from './mail-message.js';

const htmlEscapes: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export const escapeHtml = (value: string): string =>
  value.replace(/[&<>"']/g, (character) => htmlEscapes[character] ?? character);

// Someone's own words in a mail of ours (an invitation's message): quoted under "<author> wrote:",
// so that the reader can tell them from what Flotilla says.
export type MailQuote = { author: string; text: string };

// Text a user wrote, made harmless in a mail: addresses and domain names are written so that no
// mail client turns them into links (https[:]//example[.]com), and HTML is escaped where the
// message is composed. A link in our mail is only ever the action's.
export const neutraliseLinks = (value: string): string =>
  value
    .replace(/:\/\//g, '[:]//')
    .replace(/\b(?:[a-z0-9-]+\.)+[a-z]{2,}\b/gi, (domain) => domain.replace(/\./g, '[.]'));

export type MailContent = {
  to: string;
  subject: string;
  // Plain sentences; each becomes a paragraph (escaped in the HTML part). A quote is someone's
  // words, marked as theirs, its links neutralised.
  paragraphs: readonly (string | MailQuote)[];
  // The one thing to do, as a button in HTML and a bare URL in text.
  action: { label: string; url: string };
  // Said after the action, e.g. when the link expires.
  footer?: string;
};

// The product's one mail layout: the same words in text/plain and text/html.
export const composeMail = (content: MailContent): MailMessage => {
  const quoteLines = (quote: MailQuote): string[] =>
    neutraliseLinks(quote.text)
      .split(/\r?\n/)
      .map((line) => `> ${line}`);
  const text = [
    ...content.paragraphs.map((part) =>
      typeof part === 'string' ? part : [`${part.author} wrote:`, ...quoteLines(part)].join('\n'),
    ),
    `${content.action.label}: ${content.action.url}`,
    ...(content.footer === undefined ? [] : [content.footer]),
    '-- \nFlotilla',
  ].join('\n\n');
  const paragraph = (value: string): string =>
    `<p style="margin:0 0 16px">${escapeHtml(value).replace(/\n/g, '<br>')}</p>`;
  const html = [
    '<!doctype html>',
    `<html><head><meta charset="utf-8"><title>${escapeHtml(content.subject)}</title></head>`,
    '<body style="font-family:Arial,Helvetica,sans-serif;font-size:15px;color:#1f2933;line-height:1.5">',
    ...content.paragraphs.map((part) =>
      typeof part === 'string'
        ? paragraph(part)
        : [
            paragraph(`${part.author} wrote:`),
            `<blockquote style="margin:0 0 16px;padding:0 12px;border-left:3px solid #9aa5b1;color:#52606d">${escapeHtml(
              neutraliseLinks(part.text),
            ).replace(/\r?\n/g, '<br>')}</blockquote>`,
          ].join('\n'),
    ),
    `<p style="margin:24px 0"><a href="${escapeHtml(content.action.url)}" style="background:#1565c0;color:#ffffff;padding:10px 18px;border-radius:4px;text-decoration:none">${escapeHtml(content.action.label)}</a></p>`,
    paragraph(`Or open this address: ${content.action.url}`),
    ...(content.footer === undefined ? [] : [paragraph(content.footer)]),
    '<p style="color:#7b8794;font-size:13px">Flotilla</p>',
    '</body></html>',
  ].join('\n');
  return { to: content.to, subject: content.subject, text, html, links: [content.action.url] };
};
