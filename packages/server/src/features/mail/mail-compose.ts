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

export type MailContent = {
  to: string;
  subject: string;
  // Plain sentences; each becomes a paragraph (user-written text such as an invitation's message
  // is quoted as given, escaped in the HTML part).
  paragraphs: readonly string[];
  // The one thing to do, as a button in HTML and a bare URL in text.
  action: { label: string; url: string };
  // Said after the action, e.g. when the link expires.
  footer?: string;
};

// The product's one mail layout: the same words in text/plain and text/html.
export const composeMail = (content: MailContent): MailMessage => {
  const text = [
    ...content.paragraphs,
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
    ...content.paragraphs.map(paragraph),
    `<p style="margin:24px 0"><a href="${escapeHtml(content.action.url)}" style="background:#1565c0;color:#ffffff;padding:10px 18px;border-radius:4px;text-decoration:none">${escapeHtml(content.action.label)}</a></p>`,
    paragraph(`Or open this address: ${content.action.url}`),
    ...(content.footer === undefined ? [] : [paragraph(content.footer)]),
    '<p style="color:#7b8794;font-size:13px">Flotilla</p>',
    '</body></html>',
  ].join('\n');
  return { to: content.to, subject: content.subject, text, html, links: [content.action.url] };
};
