// A build context's .dockerignore, as Docker reads it: one pattern a line (`#` comments), `*`
// and `?` within a path segment, `**` across segments, `!` re-including what an earlier pattern
// excluded, the last matching pattern deciding. A pattern that matches a folder excludes
// everything in it.

type Rule = { pattern: RegExp; include: boolean };

const escapeRegExp = (text: string): string => text.replace(/[.+^${}()|[\]\\]/g, '\\$&');

const patternRegExp = (glob: string): RegExp => {
  let source = '';
  for (let at = 0; at < glob.length; at += 1) {
    const char = glob.charAt(at);
    if (char === '*' && glob.charAt(at + 1) === '*') {
      // `**/` matches no folder too.
      source += glob.charAt(at + 2) === '/' ? '(?:.*/)?' : '.*';
      at += glob.charAt(at + 2) === '/' ? 2 : 1;
    } else if (char === '*') source += '[^/]*';
    else if (char === '?') source += '[^/]';
    else source += escapeRegExp(char);
  }
  return new RegExp(`^${source}$`);
};

const cleaned = (line: string): string =>
  line
    .trim()
    .replace(/^\/+/, '')
    .replace(/^(\.\/)+/, '')
    .replace(/\/+$/, '');

export const parseDockerignore = (text: string): Rule[] =>
  text.split(/\r?\n/).flatMap((raw): Rule[] => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return [];
    const include = line.startsWith('!');
    const glob = cleaned(include ? line.slice(1) : line);
    return glob === '' || glob === '.' ? [] : [{ pattern: patternRegExp(glob), include }];
  });

// Whether a path of the context (relative, `/`-separated) is left out of the build.
export const isIgnored = (rules: readonly Rule[], path: string): boolean => {
  const segments = path.split('/');
  const candidates = segments.map((_segment, index) => segments.slice(0, index + 1).join('/'));
  let ignored = false;
  for (const rule of rules) {
    if (candidates.some((candidate) => rule.pattern.test(candidate))) ignored = !rule.include;
  }
  return ignored;
};
