// A redirect target the console follows: a path of its own, never another site ("//host").
export const safeRedirect = (value: string | null): string | null =>
  value?.startsWith('/') && !value.startsWith('//') ? value : null;
