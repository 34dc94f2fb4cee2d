export {};

// Typed `meta` for queries and mutations (TanStack Query's documented module augmentation).
declare module '@tanstack/react-query' {
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- declaration merging needs an interface
  interface Register {
    mutationMeta: { inlineError?: boolean };
  }
}
