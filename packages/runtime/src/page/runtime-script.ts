/**
 * The <script> that brought the runtime into this frame, when a page injects it as one (the
 * preview's server and the player do; the renderer evaluates it instead): not a library of the
 * host, since every instance frame gets its own runtime.
 */
export const RUNTIME_SCRIPT = document.currentScript;
