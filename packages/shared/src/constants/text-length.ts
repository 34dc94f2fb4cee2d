import { textLengthLimits } from './limits.js';

// The one length rule the server applies to every /v7 text write, for the console's forms: a
// form says what is too long before sending, instead of cutting the text short (a browser's
// maxLength truncates a paste without a word) or showing the server's message. A field with its
// own limit (OAuth fields, searches) passes that number instead of a kind.
export const textLengthProblem = (
  label: string,
  value: string,
  kind: keyof typeof textLengthLimits | number = 'name',
): string | undefined => {
  const limit = typeof kind === 'number' ? kind : textLengthLimits[kind];
  return value.length > limit
    ? `${label} must be at most ${limit.toLocaleString('en')} characters (it has ${value.length.toLocaleString('en')})`
    : undefined;
};
