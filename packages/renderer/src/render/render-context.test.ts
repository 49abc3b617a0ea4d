import { describe, expect, it } from "vitest";
import { withRenderContext } from "./render-context.js";

describe("withRenderContext", () => {
  it("a cancelled step ends at once as cancelled, whatever it waits for, and its cleanups run when it ends", async () => {
    const controller = new AbortController();
    const events: string[] = [];
    let finishStep: () => void = () => undefined;
    const ended = withRenderContext({ signal: controller.signal, onEvent: (event) => events.push(event.type) }, async (context) => {
      context.cleanups.push(() => void events.push("first cleanup"));
      // A wait nothing else ends, like a read of a FIFO.
      await new Promise<void>((resolve) => {
        finishStep = resolve;
      });
      context.cleanups.push(() => void events.push("late cleanup"));
    });
    setTimeout(() => controller.abort(), 50);
    await expect(ended).rejects.toMatchObject({ code: "cancelled" });
    expect(events).toEqual(["failed", "first cleanup"]);
    finishStep();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(events).toEqual(["failed", "first cleanup", "late cleanup"]);
  });
});
