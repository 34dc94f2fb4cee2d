import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import './no-eval.js';

// zod reads its settings from the global object no-eval.ts sets: parsing an object schema then
// never reaches for Function (which the console's Content-Security-Policy refuses).
describe('no-eval', () => {
  it('makes zod parse objects without compiling them', () => {
    const original = globalThis.Function;
    let compiled = 0;
    globalThis.Function = new Proxy(original, {
      apply: (target, self, args: unknown[]) => {
        compiled += 1;
        return Reflect.apply(target, self, args);
      },
      construct: (target, args: unknown[]) => {
        compiled += 1;
        return Reflect.construct(target, args);
      },
    });
    try {
      expect(z.object({ a: z.number() }).parse({ a: 1 })).toEqual({ a: 1 });
    } finally {
      globalThis.Function = original;
    }
    expect(compiled).toBe(0);
    expect(z.config().jitless).toBe(true);
  });
});
