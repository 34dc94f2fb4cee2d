import { createHash } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import type { BindKey } from '@balena/odata-parser';
import type { Model } from '../../model/model-types.js';
import type { Actor } from '../auth/actor.js';
import type { SqlValue } from '../db/database.js';
import { type CompiledGet, compileGet } from './compile-get.js';
import { normalizeODataPath } from './parse-request.js';
import { permissionShape } from './permissions.js';
import {
  probeText,
  type RequestShape,
  renderShape,
  requestShape,
  type UrlLiteral,
} from './request-shape.js';
import type { LiteralBind, ParamSource } from './sql-params.js';

// Compiled /v7 reads, kept by request shape: the URL with its literals lifted out
// (request-shape.ts) and the caller's permission shape (permissions.ts). A request of a known
// shape is neither parsed nor compiled: its literals and the caller's ids are the values of the
// SQL compiled for the first request of that shape, which runs as a prepared statement (parsed
// and planned once per database connection, database.ts).
//
// A literal the SQL text depends on (CompileContext.pin: `overall_status eq 'updating'` compiles
// to that status's own condition) keys its own variant of the shape. Before keeping a shape, the
// cache compiles the same shape with other literal values (a probe) and keeps it only if the
// parser read the URL as the shape says, both compiled to the same SQL, and the kept value sources
// give each request's own values. Anything else is compiled for every request, as without cache.

export type ReadStatement = {
  text: string;
  values: SqlValue[];
  count: boolean;
  // CompiledGet.countsOnly.
  countsOnly: boolean;
  // The prepared statement's name, for a kept shape.
  name: string | undefined;
};

export type ReadStatements = {
  // `repeatedCounts`: CompileContext.repeatedCounts (a batch's counts read together).
  prepare(path: string, actor: Actor, repeatedCounts?: boolean): ReadStatement;
  // Kept shapes, and requests answered from a kept shape (for tests).
  stats(): { shapes: number; hits: number };
};

export type StatementCacheOptions = { enabled: boolean; size: number };

// Variants of one shape (distinct pinned values, e.g. the seven device statuses) kept at most.
const maxVariantsPerShape = 32;

type Variant = {
  text: string;
  count: boolean;
  countsOnly: boolean;
  sources: readonly ParamSource[];
  name: string;
};

type Entry = {
  // Indexes of the pinned literals, the same for every variant.
  pins: readonly number[];
  // By pinned values; null: this variant cannot be kept (compiled every time).
  variants: Map<string, Variant | null>;
};

const uncached = (compiled: CompiledGet): ReadStatement => ({
  text: compiled.sql,
  values: compiled.params.values(),
  count: compiled.count,
  countsOnly: compiled.countsOnly,
  name: undefined,
});

const statementName = (text: string): string =>
  `v7_${createHash('sha256').update(text).digest('hex').slice(0, 32)}`;

const bindsOf = (literals: readonly UrlLiteral[]): LiteralBind[] =>
  literals.map((literal) => literal.bind);

const variantKey = (pins: readonly number[], literals: readonly UrlLiteral[]): string =>
  JSON.stringify(pins.map((index) => literals[index]?.bind ?? null));

// Pins that are literals of the URL by position (parameter aliases are never kept).
const numericPins = (pinned: readonly BindKey[]): number[] | undefined => {
  const pins: number[] = [];
  for (const pin of pinned) {
    if (typeof pin !== 'number') return undefined;
    pins.push(pin);
  }
  return pins;
};

const sameBinds = (parsed: readonly LiteralBind[], ours: readonly LiteralBind[]): boolean =>
  parsed.length === ours.length &&
  Object.keys(parsed).length === ours.length &&
  parsed.every((bind, index) => isDeepStrictEqual([...bind], [...(ours[index] ?? [])]));

const structure = (compiled: CompiledGet): unknown => ({ ...compiled.parsed, binds: undefined });

// The statement to keep for `compiled` (the first request of its shape), or null when the shape
// is not read the way the cache needs it to be.
const checkedVariant = (
  model: Model,
  shape: RequestShape,
  compiled: CompiledGet,
  actor: Actor,
  repeatedCounts: boolean,
): Variant | null => {
  const sources = compiled.params.sources();
  const pins = numericPins(compiled.pinned);
  if (!sources || !pins) return null;
  if (!sameBinds(compiled.parsed.binds, bindsOf(shape.literals))) return null;
  const probeUrl = renderShape(
    shape,
    shape.literals.map((literal, index) =>
      pins.includes(index) ? literal.text : probeText(literal, index),
    ),
  );
  const probeShape = requestShape(probeUrl);
  if (probeShape?.key !== shape.key) return null;
  let probe: CompiledGet;
  try {
    probe = compileGet(model, probeUrl, actor, repeatedCounts);
  } catch {
    return null;
  }
  const probeBinds = bindsOf(probeShape.literals);
  const replay = (binds: readonly LiteralBind[]): SqlValue[] =>
    sources.map((source) => source({ binds, actor }));
  const consistent =
    probe.sql === compiled.sql &&
    probe.count === compiled.count &&
    isDeepStrictEqual(probe.pinned, pins) &&
    isDeepStrictEqual(structure(probe), structure(compiled)) &&
    sameBinds(probe.parsed.binds, probeBinds) &&
    isDeepStrictEqual(replay(probeBinds), probe.params.values()) &&
    isDeepStrictEqual(replay(bindsOf(shape.literals)), compiled.params.values());
  if (!consistent) return null;
  return {
    text: compiled.sql,
    count: compiled.count,
    countsOnly: compiled.countsOnly,
    sources,
    name: statementName(compiled.sql),
  };
};

export const createReadStatements = (
  model: Model,
  options: StatementCacheOptions,
): ReadStatements => {
  // Least recently used first (a Map keeps insertion order; a hit moves the entry to the end).
  const entries = new Map<string, Entry>();
  let hits = 0;

  const touch = (key: string): Entry | undefined => {
    const entry = entries.get(key);
    if (entry) {
      entries.delete(key);
      entries.set(key, entry);
    }
    return entry;
  };

  // Keeps the variant `compiled` (a request of a shape not yet kept) is, if the check passes.
  const keep = (
    key: string,
    shape: RequestShape,
    compiled: CompiledGet,
    actor: Actor,
    repeatedCounts: boolean,
  ): Variant | null => {
    const pins = numericPins(compiled.pinned);
    let entry = touch(key);
    if (!pins || (entry && !isDeepStrictEqual(entry.pins, pins))) return null;
    if (!entry) {
      entry = { pins, variants: new Map() };
      entries.set(key, entry);
      const oldest = entries.keys().next();
      if (entries.size > options.size && !oldest.done) entries.delete(oldest.value);
    }
    if (entry.variants.size >= maxVariantsPerShape) return null;
    const variant = checkedVariant(model, shape, compiled, actor, repeatedCounts);
    entry.variants.set(variantKey(pins, shape.literals), variant);
    return variant;
  };

  return {
    prepare(path, actor, repeatedCounts = false) {
      const compile = (): CompiledGet => compileGet(model, path, actor, repeatedCounts);
      if (!options.enabled) return uncached(compile());
      const shape = requestShape(normalizeODataPath(path));
      if (!shape) return uncached(compile());
      const together = repeatedCounts ? '\u0002' : '';
      const key = `${permissionShape(actor)}${together}\u0001${shape.key}`;
      const entry = touch(key);
      const variant = entry?.variants.get(variantKey(entry.pins, shape.literals));
      if (variant) {
        const binds = bindsOf(shape.literals);
        try {
          const values = variant.sources.map((source) => source({ binds, actor }));
          hits++;
          return {
            text: variant.text,
            values,
            count: variant.count,
            countsOnly: variant.countsOnly,
            name: variant.name,
          };
        } catch {
          // A value the compiler would refuse (an invalid date, an infinite number): the full
          // path answers with its own error.
          return uncached(compile());
        }
      }
      const compiled = compile();
      const kept = variant === undefined ? keep(key, shape, compiled, actor, repeatedCounts) : null;
      return kept ? { ...uncached(compiled), name: kept.name } : uncached(compiled);
    },
    stats: () => ({ shapes: entries.size, hits }),
  };
};
