// How render reads a project, without the browser driver: what `compose lint`, the CLI's entry
// checks and `compose preview` need, loadable at a command's start without slowing it.

// Where a host's data-composition-src points, as render resolves it.
export { createSubCompositionResolver } from "./1-load/composition/resolve-sub-composition.js";
// The font families a project can draw as themselves, and how each is drawn.
export { fontFamilyCatalog, type FontCatalog, type FontResolution } from "./web/fonts/font-catalog.js";
// What a render would do with a remote URL: the project's packages answer it, or the network policy rules on it.
export { remoteAnswers, type RemoteAnswer } from "./web/remote-answers.js";
// The project's web as render resolves it, for the studio's browser: CDN and Google Fonts URLs
// answered from the project's packages, the default fonts and the font packages as web fonts.
export { createRoutedWeb, type RoutedWeb } from "./web/local/routed-web.js";
export { createLocalWeb, type LocalWeb } from "./web/local/local-resolver.js";
// The file server's way with project files, for the studio to serve them alike.
export { openServedFile } from "./web/project-server.js";
export { byteRange, sendProjectFile } from "./web/send-file.js";
export { projectAssetCheck } from "./1-load/composition/project-asset-check.js";
// The project-file rule the render's file server applies.
export { readProjectFile, readOpenedFile, ProjectFileError, MAX_PROJECT_FILE_BYTES, notRegularFile, type ProjectFile } from "./common/project-file.js";
// What a composition path names (a directory its index.html), for the CLI's argument and the server's requests.
export { findCompositionEntry, DIRECTORY_ENTRY, type CompositionEntry } from "./common/composition-entry.js";
export { isInside } from "./common/path-inside.js";
export { statOrUndefined } from "./common/stat-or-undefined.js";
export { compositionText, projectTextLoader } from "./1-load/composition/project-text.js";
// Waiting at most so long, as the renderer waits: for the CLI and the server.
export { withDeadline } from "./common/deadline.js";
