// Calls the library's render() in a plain Node process (not through vitest's module transform,
// which lacks import.meta.resolve that the renderer uses to find the page runtime) and prints
// every event as one JSON line on stdout, then a last line {"type":"result", ...}.
//
// Usage: node render-api-runner.mjs '<request JSON>' [abortAfterFrames]
// The request's `options` go through validateRenderOptions first.
import { validateRenderOptions } from "@compose/core";
import { render, RenderError } from "@compose/renderer";

const request = JSON.parse(process.argv[2]);
const abortAfterFrames = process.argv[3] === undefined ? undefined : Number(process.argv[3]);

const validated = validateRenderOptions(request.options ?? {});
if (!validated.ok) {
  console.log(JSON.stringify({ type: "result", ok: false, invalid: validated.problem }));
  process.exit(0);
}

const controller = new AbortController();
const print = (value) => process.stdout.write(JSON.stringify(value) + "\n");
try {
  const finished = await render(
    { ...request, options: validated.options },
    {
      signal: controller.signal,
      onEvent(event) {
        print(event);
        if (abortAfterFrames !== undefined && event.type === "progress" && event.frame >= abortAfterFrames) controller.abort();
      },
    },
  );
  print({ type: "result", ok: true, value: finished });
} catch (error) {
  print({
    type: "result",
    ok: false,
    error: { isRenderError: error instanceof RenderError, code: error?.code, message: String(error?.message ?? error) },
  });
}
