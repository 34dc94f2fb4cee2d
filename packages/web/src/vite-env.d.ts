/// <reference types="vite/client" />

// Baked in by vite.config.ts; compared with /buildtime.txt by the version check.
declare const __FLOTILLA_BUILD_TIME__: string;
