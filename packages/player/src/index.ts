// @compose/player: importing it defines <compose-player>.
import { ComposePlayerElement } from "./player-element.js";

export { ComposePlayerElement, type ComposePlayerError, type ComposePlayerEventMap } from "./player-element.js";
export { PLAYER_ERROR_CODES, type PlayerErrorCode } from "./problems.js";

if (!customElements.get("compose-player")) customElements.define("compose-player", ComposePlayerElement);

declare global {
  interface HTMLElementTagNameMap {
    "compose-player": ComposePlayerElement;
  }
}
