/// <reference types="vite/client" />

/** `<root package version>.<build epoch seconds>`, stamped in by vite.config.ts. */
declare const __APP_VERSION__: string;
