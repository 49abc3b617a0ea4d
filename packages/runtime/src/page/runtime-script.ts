/**
 * The <script> that brought the runtime into this frame, when a page injects it as one (the
 * preview's server and the player do; the renderer evaluates it instead): a written document's
 * instances load the runtime from its URL.
 */
export const RUNTIME_SCRIPT = document.currentScript;
