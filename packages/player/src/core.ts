// @compose/player/core: the player without its element, for a page that draws its own controls
// around it (the studio of compose preview).
export { CompositionPlayer, DEFAULT_FPS, type BootConfig, type CompositionPlayerOptions, type PageSource } from "./composition-player.js";
export { scaleToFit, type StageParts } from "./fit-stage.js";
export { soundVolume } from "./sounds.js";
export { errorText, PLAYER_ERROR_CODES, type PlayerErrorCode, type PlayerProblem } from "./problems.js";
