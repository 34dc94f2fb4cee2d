import { describe, expect, it } from 'vitest';
import { parseBlocks } from '../../ui/MarkdownText.js';
import { docPageOf } from '../../api/doc-pages.js';
import { docSegments } from './doc-source.js';

const origin = 'https://console.example.com';

describe('docPageOf', () => {
  it('knows the built-in pages only', () => {
    expect(docPageOf('getting-started')).toEqual({ title: 'Getting started', file: 'README.md' });
    expect(docPageOf('agent')?.file).toBe('packages/agent/README.md');
    expect(docPageOf('api-limits')).toEqual({ title: 'API limits', file: 'docs/API-LIMITS.md' });
    expect(docPageOf('nope')).toBeUndefined();
    expect(docPageOf('constructor')).toBeUndefined();
  });
});

describe('docSegments', () => {
  it('cuts tables out as preformatted text and keeps the rest as Markdown', () => {
    const source = [
      '# Title',
      '',
      'Every setting:',
      '',
      '| variable | default |',
      '|---|---|',
      '| `PORT` | `8080` |',
      '',
      '## After',
    ].join('\n');
    expect(docSegments(source, 'README.md', origin)).toEqual([
      { kind: 'markdown', text: '# Title\n\nEvery setting:\n' },
      {
        kind: 'preformatted',
        text: '| variable | default |\n|---|---|\n| `PORT` | `8080` |',
      },
      { kind: 'markdown', text: '\n## After' },
    ]);
  });

  it('leaves fenced code alone, tables and indentation included', () => {
    const source = '```text\n| not | a table |\n- item\n    indented\n```';
    expect(docSegments(source, 'README.md', origin)).toEqual([{ kind: 'markdown', text: source }]);
  });

  it('joins list items wrapped over indented lines into one item', () => {
    const source = [
      '- `npm run dev:web`: the console with hot reload, proxying API calls to a',
      '  server started with `npm start`.',
      '- metrics:',
      '  - CPU from deltas',
      '  - IP addresses, leaving out docker and',
      '    VPN interfaces',
      '1. first step,',
      '   continued',
      '',
      '    indented code after a blank line',
    ].join('\n');
    const [segment] = docSegments(source, 'README.md', origin);
    expect(parseBlocks(segment?.text ?? '')).toEqual([
      {
        kind: 'list',
        ordered: false,
        items: [
          '`npm run dev:web`: the console with hot reload, proxying API calls to a server started with `npm start`.',
          'metrics:',
          'CPU from deltas',
          'IP addresses, leaving out docker and VPN interfaces',
        ],
      },
      { kind: 'list', ordered: true, items: ['first step, continued'] },
      { kind: 'paragraph', lines: ['    indented code after a blank line'] },
    ]);
  });

  it('turns links to other built-in pages into links to their console pages', () => {
    const [segment] = docSegments(
      'See [docs/ARCHITECTURE.md](docs/ARCHITECTURE.md), [the agent](packages/agent/README.md#install),' +
        ' [elsewhere](https://example.com) and [a file](LICENSE).',
      'README.md',
      origin,
    );
    expect(segment?.text).toBe(
      'See [docs/ARCHITECTURE.md](https://console.example.com/docs/architecture),' +
        ' [the agent](https://console.example.com/docs/agent), [elsewhere](https://example.com) and' +
        ' [a file](LICENSE).',
    );
    // Relative to the page's own file.
    expect(docSegments('[start](../README.md)', 'docs/ARCHITECTURE.md', origin)[0]?.text).toBe(
      '[start](https://console.example.com/docs/getting-started)',
    );
  });
});
