// Media as render prepares them: extracted video frames and natural lengths, from the server.
import type { ComposeApi, CompositionInfo } from "@compose/runtime";
import { setStatus } from "./app-state.js";
import { answerOf } from "./server-answer.js";

/**
 * Hands the composition page the plans render hands its pages: the natural length of media
 * without data-duration, and each video's frames extracted by ffmpeg at this fps, which the page
 * shows instead of playing the video. Resolves to the page's description, updated.
 */
export async function prepareFrameMedia(api: ComposeApi, info: CompositionInfo, fps: number): Promise<CompositionInfo> {
  const media = api.describeMedia();
  if (media.length === 0) return info;
  setStatus("preparing media…");
  const response = await fetch("/__compose/media", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ fps, media }),
  });
  const { plans } = await answerOf<{ plans: Parameters<ComposeApi["prepareMedia"]>[0] }>(response, { withCode: true });
  return api.prepareMedia(plans);
}
