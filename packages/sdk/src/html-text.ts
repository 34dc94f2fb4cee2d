// Error bodies from proxies and gateways are HTML pages; the console shows only their error text.

const namedEntities: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
};

const decodeEntities = (text: string): string =>
  text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, name: string) => {
    if (name.startsWith('#')) {
      const codePoint =
        name[1] === 'x' || name[1] === 'X'
          ? Number.parseInt(name.slice(2), 16)
          : Number.parseInt(name.slice(1), 10);
      return codePoint > 0 && codePoint <= 0x10ffff ? String.fromCodePoint(codePoint) : entity;
    }
    return namedEntities[name.toLowerCase()] ?? entity;
  });

const textOf = (html: string): string =>
  decodeEntities(
    html
      .replace(/<!--[\s\S]*?-->/g, ' ')
      .replace(/<(script|style|head)\b[\s\S]*?<\/\1\s*>/gi, ' ')
      .replace(/<[^>]*>/g, ' '),
  )
    .replace(/\s+/g, ' ')
    .trim();

const elementText = (html: string, tag: string): string => {
  const match = new RegExp(`<${tag}\\b[^>]*>([\\s\\S]*?)</${tag}\\s*>`, 'i').exec(html);
  return match?.[1] === undefined ? '' : textOf(match[1]);
};

export const looksLikeHtml = (text: string): boolean => {
  const trimmed = text.trim();
  return (
    (trimmed.startsWith('<') && trimmed.endsWith('>')) ||
    /<(?:!doctype\s+html|html|body)\b/i.test(trimmed)
  );
};

// The page's headline, else its title (unless it says nothing more than "Error"), else all of
// its visible text.
export const htmlErrorText = (html: string): string => {
  const heading = elementText(html, 'h1');
  if (heading !== '') return heading;
  const title = elementText(html, 'title');
  if (title !== '' && !/^error$/i.test(title)) return title;
  const body = /<body\b[^>]*>([\s\S]*)<\/body\s*>/i.exec(html)?.[1];
  return textOf(body ?? html) || title;
};
