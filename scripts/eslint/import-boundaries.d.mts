// Types of the tables in import-boundaries.mjs, for the TypeScript tests that read them.

export declare const allowedImports: Readonly<Record<string, readonly string[]>>;

export declare const forbiddenLayers: readonly { from: string; to: string; why: string }[];

export declare const webFloor: Readonly<Record<string, readonly string[]>>;

export declare const webFeatureImports: readonly { from: string; to: string; why: string }[];

export declare const flotillaPlugin: { rules: Readonly<Record<string, unknown>> };
