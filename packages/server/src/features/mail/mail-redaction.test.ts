import { describe, expect, it } from 'vitest';
import { composeMail } from './mail-compose.js';
import { redactedLink, redactLinks } from './mail-redaction.js';

describe('redactLinks', () => {
  it('removes each link from the text and the HTML (escaped there), however often it appears', () => {
    const url = 'https://flotilla.example.com/user/verify-email/tok.en/a%40b.c?x=1&y=2';
    const mail = composeMail({
      to: 'a@b.c',
      subject: 'Verify',
      paragraphs: ['Hello,'],
      action: { label: 'Verify', url },
    });
    const text = redactLinks(mail.text, mail.links);
    const html = redactLinks(mail.html, mail.links);
    expect(text).toContain(`Verify: ${redactedLink}`);
    expect(html).toContain(`href="${redactedLink}"`);
    expect(html).toContain(`Or open this address: ${redactedLink}`);
    for (const body of [text, html]) expect(body).not.toContain('tok.en');
  });

  it('removes a longer link whole when a shorter one is its beginning', () => {
    expect(
      redactLinks('a https://x.test/a/secret b', ['https://x.test/a', 'https://x.test/a/secret']),
    ).toBe(`a ${redactedLink} b`);
  });
});

describe('composeMail quotes', () => {
  it("marks someone's words as theirs and defangs addresses, leaving plain sentences alone", () => {
    const mail = composeMail({
      to: 'a@b.c',
      subject: 'Invitation',
      paragraphs: [
        'Hello,',
        { author: 'alice', text: 'See www.evil.test or mail bob@corp.example, e.g. v2.1 works.' },
      ],
      action: { label: 'Accept', url: 'https://flotilla.example.com/invitation/t' },
    });
    expect(mail.text).toContain(
      'alice wrote:\n> See www[.]evil[.]test or mail bob@corp[.]example, e.g. v2.1 works.',
    );
    expect(mail.links).toEqual(['https://flotilla.example.com/invitation/t']);
  });
});
