/**
 * What taking one frame gives: its image, or word that it is the previous frame again (the page
 * said the seek changed nothing, or the compositor drew no damage). A repeat is never sent to
 * the encoder; the encoder shows the previous image for one more frame.
 */
export type FrameResult = { kind: "image"; data: Buffer } | { kind: "repeat" };

export const REPEAT: FrameResult = Object.freeze({ kind: "repeat" });
