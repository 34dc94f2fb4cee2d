import { textLengthLimits } from '@flotilla/shared/constants/limits';
import type { FieldDefinition } from '../model-types.js';

// Short constructors so each resource reads like the v7 typings.
export const id: FieldDefinition = { type: 'integer', readOnly: true };
export const createdAt: FieldDefinition = { type: 'date', readOnly: true };
export const modifiedAt: FieldDefinition = { type: 'date', readOnly: true };
export const text = (extra: Partial<FieldDefinition> = {}): FieldDefinition => ({
  type: 'text',
  ...extra,
});
// Names and keys people choose (variable names, tag keys, device names...).
export const shortText = (extra: Partial<FieldDefinition> = {}): FieldDefinition =>
  text({ maxLength: textLengthLimits.name, ...extra });
// Build logs and Dockerfiles: as long as a request body allows.
export const longText = (extra: Partial<FieldDefinition> = {}): FieldDefinition =>
  text({ maxLength: textLengthLimits.long, ...extra });
export const integer = (extra: Partial<FieldDefinition> = {}): FieldDefinition => ({
  type: 'integer',
  ...extra,
});
export const real = (extra: Partial<FieldDefinition> = {}): FieldDefinition => ({
  type: 'real',
  ...extra,
});
export const bigint = (extra: Partial<FieldDefinition> = {}): FieldDefinition => ({
  type: 'bigint',
  ...extra,
});
export const bool = (extra: Partial<FieldDefinition> = {}): FieldDefinition => ({
  type: 'boolean',
  ...extra,
});
export const date = (extra: Partial<FieldDefinition> = {}): FieldDefinition => ({
  type: 'date',
  ...extra,
});
export const json = (extra: Partial<FieldDefinition> = {}): FieldDefinition => ({
  type: 'json',
  ...extra,
});
// A to-one navigation stored as a foreign key; `reverse` names the to-many navigation(s) it creates
// on the target (several when v7 has synonyms for it).
export const ref = (
  target: string,
  reverse?: string | readonly string[],
  extra: Partial<FieldDefinition> = {},
): FieldDefinition => ({
  type: 'integer',
  references: target,
  ...(reverse === undefined ? {} : { reverse }),
  ...extra,
});
// The `name`/`value` or `tag_key`/`value` pair of variables, tags and labels.
export const keyValue = (key: string): Record<string, FieldDefinition> => ({
  [key]: shortText({ required: true }),
  value: text({ required: true }),
});
