/** The page runtime's bundle (@compose/runtime's runtime.iife.js), put here as text when the player is bundled. */
export const RUNTIME_BUNDLE: string = __COMPOSE_RUNTIME__;

declare const __COMPOSE_RUNTIME__: string;
