// The console's Content-Security-Policy forbids eval. zod compiles its object parsers with
// Function when it may, and probes for that on its first parse, which the browser reports as a
// policy violation: its `jitless` setting turns both off. Set through the global object zod keeps
// its settings in (created by whichever of zod or this runs first), so that the entry chunk does
// not take zod's modules in with the setter.
const zodSettings = '__zod_globalConfig';
const existing: unknown = Reflect.get(globalThis, zodSettings);
if (typeof existing === 'object' && existing !== null) Reflect.set(existing, 'jitless', true);
else Reflect.set(globalThis, zodSettings, { jitless: true });
