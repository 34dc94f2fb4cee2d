import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

// index.html as the console answers it for one URL: the build's file, plus modulepreload links
// for the chunks the screen at that URL needs (route-preloads.json, written by the web build from
// packages/web/src/app/route-preloads.ts). The browser then fetches the screen's code together
// with the entry instead of after the entry has run. Both files are read again when the build
// changes them.

export type IndexPage = { html: string; etag: string };

const preloadsSchema = z.array(
  z.object({ pattern: z.string(), files: z.array(z.string().regex(/^\/assets\/[\w.-]+\.js$/)) }),
);

type Build = { stamp: string; html: string; routes: { pattern: RegExp; links: string }[] };

const stampOf = (files: readonly string[]): string =>
  files
    .map((file) => {
      try {
        const stat = statSync(file);
        return `${stat.mtimeMs}:${stat.size}`;
      } catch {
        return 'none';
      }
    })
    .join('|');

const readRoutes = (file: string): Build['routes'] => {
  // An older build without the file, or a file not as expected: no preloads, the page works
  // as before, only its screen's code is fetched later.
  let parsed: z.infer<typeof preloadsSchema>;
  try {
    parsed = preloadsSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
  } catch {
    return [];
  }
  return parsed.map((route) => ({
    pattern: new RegExp(route.pattern),
    links: route.files
      .map((href) => `<link rel="modulepreload" crossorigin href="${href}">`)
      .join('\n    '),
  }));
};

export const createIndexPages = (root: string): ((urlPath: string) => IndexPage) => {
  const indexFile = path.join(root, 'index.html');
  const preloadsFile = path.join(root, 'route-preloads.json');
  let build: Build | undefined;
  const pages = new Map<string, IndexPage>();

  const current = (): Build => {
    const stamp = stampOf([indexFile, preloadsFile]);
    if (build?.stamp !== stamp) {
      build = { stamp, html: readFileSync(indexFile, 'utf8'), routes: readRoutes(preloadsFile) };
      pages.clear();
    }
    return build;
  };

  return (urlPath) => {
    const { html, routes } = current();
    const route = routes.find((candidate) => candidate.pattern.test(urlPath));
    const key = route?.pattern.source ?? '';
    const known = pages.get(key);
    if (known) return known;
    // After the build's own modulepreload links: the entry's files are fetched first.
    const body = route ? html.replace('</head>', `  ${route.links}\n  </head>`) : html;
    const page = {
      html: body,
      etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
    };
    pages.set(key, page);
    return page;
  };
};
