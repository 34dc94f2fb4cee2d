import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { Fragment, type ReactNode } from 'react';

// A small, safe Markdown subset for device notes: headings, lists, fenced code, paragraphs and
// inline code, bold, italic and links. Built as React elements, never as HTML, so a note cannot
// inject markup; links only to http(s) and mailto.

const inlinePattern =
  /(`[^`]+`)|(\*\*[^*]+\*\*)|(\*[^*\s][^*]*\*|_[^_\s][^_]*_)|(\[[^\]]+\]\([^)\s]+\))/g;

const safeHref = (href: string): string | null =>
  /^(https?:\/\/|mailto:)/i.test(href) ? href : null;

const inline = (text: string): ReactNode[] => {
  const nodes: ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(inlinePattern)) {
    const [token] = match;
    const start = match.index;
    if (start > last) nodes.push(text.slice(last, start));
    const key = `${start}`;
    if (match[1]) nodes.push(<code key={key}>{token.slice(1, -1)}</code>);
    else if (match[2]) nodes.push(<strong key={key}>{inline(token.slice(2, -2))}</strong>);
    else if (match[3]) nodes.push(<em key={key}>{inline(token.slice(1, -1))}</em>);
    else {
      const [, label = '', href = ''] = /^\[([^\]]+)\]\(([^)\s]+)\)$/.exec(token) ?? [];
      const safe = safeHref(href);
      nodes.push(
        safe ? (
          <Link key={key} href={safe} target="_blank" rel="noopener noreferrer">
            {label}
          </Link>
        ) : (
          token
        ),
      );
    }
    last = start + token.length;
  }
  if (last < text.length) nodes.push(text.slice(last));
  return nodes;
};

type Block =
  | { kind: 'heading'; level: number; text: string }
  | { kind: 'list'; ordered: boolean; items: string[] }
  | { kind: 'code'; text: string }
  | { kind: 'paragraph'; lines: string[] };

const bullet = /^\s*[-*]\s+/;
const numbered = /^\s*\d+[.)]\s+/;

export const parseBlocks = (source: string): Block[] => {
  const blocks: Block[] = [];
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index] ?? '';
    if (line.trim() === '') continue;
    if (line.startsWith('```')) {
      const code: string[] = [];
      for (
        index += 1;
        index < lines.length && !(lines[index] ?? '').startsWith('```');
        index += 1
      ) {
        code.push(lines[index] ?? '');
      }
      blocks.push({ kind: 'code', text: code.join('\n') });
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      blocks.push({ kind: 'heading', level: heading[1]?.length ?? 1, text: heading[2] ?? '' });
      continue;
    }
    const marker = bullet.test(line) ? bullet : numbered.test(line) ? numbered : null;
    const previous = blocks[blocks.length - 1];
    if (marker) {
      const item = line.replace(marker, '');
      const ordered = marker === numbered;
      if (previous?.kind === 'list' && previous.ordered === ordered) previous.items.push(item);
      else blocks.push({ kind: 'list', ordered, items: [item] });
      continue;
    }
    // Consecutive text lines make one paragraph (a blank line ends it).
    const before = lines[index - 1] ?? '';
    if (previous?.kind === 'paragraph' && before.trim() !== '') previous.lines.push(line);
    else blocks.push({ kind: 'paragraph', lines: [line] });
  }
  return blocks;
};

// `lineBreaks`: a note keeps the lines as typed ("hard"); a document's paragraphs flow, each
// line break read as a space as Markdown does ("soft").
export const MarkdownText = ({
  source,
  lineBreaks = 'hard',
}: {
  source: string;
  lineBreaks?: 'hard' | 'soft';
}) => (
  <Box sx={{ '& p': { my: 0.75 }, '& ul, & ol': { my: 0.75, pl: 3 }, overflowWrap: 'anywhere' }}>
    {parseBlocks(source).map((block, index) => {
      switch (block.kind) {
        case 'heading':
          return (
            <Typography
              key={index}
              sx={{ fontWeight: 600, fontSize: block.level <= 2 ? '1.05rem' : '1rem' }}
            >
              {inline(block.text)}
            </Typography>
          );
        case 'list': {
          const items = block.items.map((item, itemIndex) => (
            <li key={itemIndex}>{inline(item)}</li>
          ));
          return block.ordered ? <ol key={index}>{items}</ol> : <ul key={index}>{items}</ul>;
        }
        case 'code':
          return (
            <Box
              key={index}
              component="pre"
              // Long lines scroll inside the block rather than being cut or widening the page.
              sx={{
                p: 1,
                bgcolor: 'action.hover',
                borderRadius: 1,
                maxWidth: '100%',
                overflowX: 'auto',
                overflowWrap: 'normal',
                whiteSpace: 'pre',
              }}
            >
              <code>{block.text}</code>
            </Box>
          );
        case 'paragraph':
          return (
            <Typography key={index} component="p" variant="body2">
              {lineBreaks === 'soft'
                ? inline(block.lines.map((line) => line.trim()).join(' '))
                : block.lines.map((line, lineIndex) => (
                    <Fragment key={lineIndex}>
                      {lineIndex > 0 ? <br /> : null}
                      {inline(line)}
                    </Fragment>
                  ))}
            </Typography>
          );
      }
    })}
  </Box>
);
