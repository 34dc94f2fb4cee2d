// Runs before every unit test file (vitest.config.ts). In jsdom files, testing-library's waits
// (findBy*, waitFor) get a deadline that holds on a busy machine: their default of 1 s is sized
// for an idle one, and a MUI page whose queries settle in 300 ms idle can need several seconds
// while other processes own the cores. A wait still ends as soon as its condition holds.
// A module, for the top-level await.
export {};

if (typeof document !== 'undefined') {
  const { configure } = await import('@testing-library/react');
  configure({ asyncUtilTimeout: 15_000 });
}
