// The preparation of the built-in documentation pages' Markdown (api/doc-pages.ts lists them)
// for MarkdownText, whose small subset covers headings, lists,
// fenced code and paragraphs: tables are cut out as preformatted text, and list items wrapped
// over indented lines are joined back into one line.

import { docPages } from '../../api/doc-pages.js';

export type DocSegment = { kind: 'markdown' | 'preformatted'; text: string };

const fence = /^```/;
const tableRow = /^\s*\|/;
const listItem = /^\s*([-*]|\d+[.)])\s+/;
const continuation = /^\s+\S/;

// A link to another built-in page (relative to `file`) becomes an absolute link to its console
// page: MarkdownText only links http(s) URLs.
const linkPages = (line: string, file: string, origin: string): string =>
  line.replace(/\]\(([^)\s]+)\)/g, (whole, href: string) => {
    if (/^[a-z][a-z\d+.-]*:|^\/|^#/i.test(href)) return whole;
    const target = new URL(href, `https://repository.invalid/${file}`).pathname.slice(1);
    const page = Object.entries(docPages).find(([, doc]) => doc.file === target)?.[0];
    return page === undefined ? whole : `](${origin}/docs/${page})`;
  });

export const docSegments = (source: string, file: string, origin: string): DocSegment[] => {
  const segments: DocSegment[] = [];
  let markdown: string[] = [];
  let table: string[] = [];
  let inFence = false;
  let inItem = false;
  const flushMarkdown = (): void => {
    if (markdown.some((line) => line.trim() !== '')) {
      segments.push({ kind: 'markdown', text: markdown.join('\n') });
    }
    markdown = [];
  };
  const flushTable = (): void => {
    if (table.length > 0) segments.push({ kind: 'preformatted', text: table.join('\n') });
    table = [];
  };
  for (const line of source.replace(/\r\n?/g, '\n').split('\n')) {
    if (inFence || fence.test(line)) {
      if (fence.test(line)) inFence = !inFence;
      flushTable();
      markdown.push(line);
      inItem = false;
      continue;
    }
    if (tableRow.test(line)) {
      flushMarkdown();
      table.push(line);
      inItem = false;
      continue;
    }
    flushTable();
    const last = markdown.length - 1;
    if (inItem && continuation.test(line) && !listItem.test(line) && last >= 0) {
      markdown[last] = `${markdown[last] ?? ''} ${linkPages(line.trim(), file, origin)}`;
      continue;
    }
    inItem = listItem.test(line);
    markdown.push(linkPages(line, file, origin));
  }
  flushTable();
  flushMarkdown();
  return segments;
};
