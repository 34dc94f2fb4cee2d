// A batch's reads of the same rows that differ only in their one `$count` expansion (the
// console's device counts per status: seven reads of the fleets, each counting one status) as one
// read: the rows are filtered once, each count is a column of its own (CompileContext
// .repeatedCounts names the k-th `<navigation>@<k>`), and the rows are split again into each
// read's answer. PostgreSQL then plans and runs the rows' filter (the caller's permissions) once
// instead of once per count.

export type CountGroup = {
  // The read answering them all, with repeated `$count` expansions.
  path: string;
  navigation: string;
  // Indexes of the batch's reads, in the order of their expansions.
  members: number[];
};

// Where the parenthesis opened at `open` closes, skipping OData string literals ('it''s').
const closing = (text: string, open: number): number => {
  let depth = 0;
  for (let index = open; index < text.length; index++) {
    const char = text[index];
    if (char === "'") {
      const end = text.indexOf("'", index + 1);
      if (end === -1) return -1;
      index = end;
    } else if (char === '(') depth++;
    else if (char === ')' && --depth === 0) return index;
  }
  return -1;
};

// `navigation/$count` or `navigation/$count(...)`, one expansion and nothing after it.
const countNavigation = (expand: string): string | undefined => {
  const match = /^([A-Za-z_][A-Za-z0-9_]*)\/\$count/.exec(expand);
  if (!match?.[1]) return undefined;
  const rest = match[0].length;
  if (rest === expand.length) return match[1];
  return expand[rest] === '(' && closing(expand, rest) === expand.length - 1 ? match[1] : undefined;
};

const decoded = (text: string): string | undefined => {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
};

// The read without its `$expand` (the group's key) and the expansion, when `path` (after /v7)
// has exactly one `$expand` and it is one `$count`.
const splitCount = (
  path: string,
): { rest: string; navigation: string; raw: string } | undefined => {
  const question = path.indexOf('?');
  if (question === -1) return undefined;
  const options = path.slice(question + 1).split('&');
  const expands = options.filter((option) => decoded(option.split('=')[0] ?? '') === '$expand');
  if (expands.length !== 1 || expands[0] === undefined) return undefined;
  const raw = expands[0].slice(expands[0].indexOf('=') + 1);
  const expand = decoded(raw);
  const navigation = expand === undefined ? undefined : countNavigation(expand);
  if (navigation === undefined || expand === undefined) return undefined;
  const others = options.filter((option) => option !== expands[0]);
  return { rest: `${path.slice(0, question)}?${others.join('&')}`, navigation, raw };
};

// The groups of two reads or more among `paths` (each the part after /v7).
export const countGroups = (paths: readonly (string | undefined)[]): CountGroup[] => {
  const byRest = new Map<string, { navigation: string; members: number[]; expands: string[] }>();
  for (const [index, path] of paths.entries()) {
    const split = path === undefined ? undefined : splitCount(path);
    if (!split) continue;
    const key = `${split.navigation}\u0001${split.rest}`;
    const group = byRest.get(key) ?? { navigation: split.navigation, members: [], expands: [] };
    group.members.push(index);
    group.expands.push(split.raw);
    byRest.set(key, group);
  }
  return [...byRest.entries()]
    .filter(([, group]) => group.members.length > 1)
    .map(([key, group]) => {
      const rest = key.slice(key.indexOf('\u0001') + 1);
      const joiner = rest.endsWith('?') ? '' : '&';
      return {
        // As the reads spelled them (the parser reads `%2F` as no slash).
        path: `${rest}${joiner}$expand=${group.expands.join(',')}`,
        navigation: group.navigation,
        members: group.members,
      };
    });
};

type Row = Record<string, unknown>;

const isRow = (value: unknown): value is Row =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

// Each member's `d` (JSON text) from the group read's rows (JSON text): the rows' fields, then
// the member's count under the navigation's name, as its own read answers. Undefined when the
// rows are not what the group read must give (a count missing or one too many).
export const splitCounts = (group: CountGroup, rowsText: string): string[] | undefined => {
  const rows: unknown = JSON.parse(rowsText);
  if (!Array.isArray(rows)) return undefined;
  const prefix = `${group.navigation}@`;
  const answers: Row[][] = group.members.map(() => []);
  for (const row of rows) {
    if (!isRow(row)) return undefined;
    const fields: Row = {};
    let counts = 0;
    for (const [key, value] of Object.entries(row)) {
      if (key.startsWith(prefix)) counts++;
      else fields[key] = value;
    }
    if (counts !== group.members.length) return undefined;
    for (const [index, answer] of answers.entries()) {
      const count = row[`${prefix}${index}`];
      if (count === undefined) return undefined;
      answer.push({ ...fields, [group.navigation]: count });
    }
  }
  return answers.map((answer) => JSON.stringify(answer));
};
