import { useSyncExternalStore } from 'react';

// Named views of a table (its filters, sort and columns), kept in this browser's local storage
// like the other local preferences. A view is a flat record of strings and numbers, so what a
// table reads back it checks itself (parseListParams and the like).
export type SavedView = { name: string; state: Record<string, string | number> };

const keyOf = (table: string): string => `flotilla.savedViews.${table}`;
export const maxViewNameLength = 50;

const listeners = new Set<() => void>();
const notify = (): void => {
  for (const listener of listeners) listener();
};
const subscribe = (listener: () => void): (() => void) => {
  listeners.add(listener);
  // Another tab of this browser saved or removed a view.
  window.addEventListener('storage', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', listener);
  };
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isView = (value: unknown): value is SavedView =>
  isRecord(value) &&
  typeof value.name === 'string' &&
  isRecord(value.state) &&
  Object.values(value.state).every((item) => typeof item === 'string' || typeof item === 'number');

// Views storage refused (private mode): they last until the page is reloaded.
const unkept = new Map<string, string>();
// The last text read per table and what it parsed to, so a snapshot is stable between changes.
const parsed = new Map<string, { text: string | null; views: SavedView[] }>();

const readText = (table: string): string | null => {
  const fallback = unkept.get(table);
  if (fallback !== undefined) return fallback;
  try {
    return window.localStorage.getItem(keyOf(table));
  } catch {
    return null;
  }
};

export const readSavedViews = (table: string): SavedView[] => {
  const text = readText(table);
  const cached = parsed.get(table);
  if (cached && cached.text === text) return cached.views;
  let views: SavedView[] = [];
  try {
    const value: unknown = text === null ? [] : JSON.parse(text);
    views = Array.isArray(value) ? value.filter(isView) : [];
  } catch {
    // A damaged entry reads as no views.
  }
  parsed.set(table, { text, views });
  return views;
};

// Whether the views could be kept beyond this page.
const writeViews = (table: string, views: readonly SavedView[]): boolean => {
  const text = JSON.stringify(views);
  let kept = true;
  try {
    window.localStorage.setItem(keyOf(table), text);
    unkept.delete(table);
  } catch {
    kept = false;
    unkept.set(table, text);
  }
  notify();
  return kept;
};

// Why a name cannot be saved, or null.
export const viewNameProblem = (name: string): string | null => {
  const trimmed = name.trim();
  if (trimmed === '') return 'Name the view';
  if (trimmed.length > maxViewNameLength) {
    return `At most ${maxViewNameLength} characters`;
  }
  return null;
};

// Saves the view under its name; a view of the same name is replaced.
export const saveView = (table: string, view: SavedView): boolean => {
  const name = view.name.trim();
  const others = readSavedViews(table).filter((saved) => saved.name !== name);
  return writeViews(table, [...others, { name, state: { ...view.state } }]);
};

export const removeView = (table: string, name: string): boolean =>
  writeViews(
    table,
    readSavedViews(table).filter((saved) => saved.name !== name),
  );

export const useSavedViews = (table: string): SavedView[] =>
  useSyncExternalStore(subscribe, () => readSavedViews(table));
