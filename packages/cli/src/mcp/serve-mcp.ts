/**
 * `compose mcp`: a Model Context Protocol server on standard input and output. The SDK's low-level
 * server, rather than its McpServer: a call's arguments are checked by the commands' own code, so a
 * mistake is the one line the CLI prints, not a schema library's report.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type CallToolResult,
  type ProgressToken,
  type ServerNotification,
} from "@modelcontextprotocol/sdk/types.js";
import { closestMatch, type RenderFailedEvent } from "@compose/core";
import { unexpectedErrorLine } from "../unexpected-error.js";
import { UsageError } from "../usage-error.js";
import { TOOLS, type CallContext } from "./tools.js";

function failure(lines: string[], more: CallToolResult["content"] = []): CallToolResult {
  return { content: [{ type: "text", text: lines.join("\n") }, ...more], isError: true };
}

/**
 * A call that failed, as the CLI says it: a usage error's line (and its details), a render's
 * failure with its failed event for a program to read, anything else as unexpected.
 */
async function failureOf(error: unknown): Promise<CallToolResult> {
  if (error instanceof UsageError) return failure([error.message, ...error.details.map((detail) => `  ${detail}`)]);
  const { RenderError } = await import("@compose/renderer");
  if (error instanceof RenderError) {
    const failed: RenderFailedEvent = { type: "failed", code: error.code, message: error.message, problems: error.problems };
    return failure([error.message], [{ type: "text", text: JSON.stringify(failed) }]);
  }
  return failure([unexpectedErrorLine(error)]);
}

/**
 * Progress for the client's token, each step above the one before (the protocol asks progress to
 * grow); without a token, nothing is sent.
 */
function progressSender(token: ProgressToken | undefined, send: (notification: ServerNotification) => Promise<void>): CallContext["progress"] {
  let last = -1;
  return (done, total, message) => {
    if (token === undefined || done <= last) return;
    last = done;
    // A client gone meanwhile is the transport's to report, not this call's.
    send({ method: "notifications/progress", params: { progressToken: token, progress: done, total, message } }).catch(() => undefined);
  };
}

function createServer(version: string, running: Set<Promise<unknown>>): Server {
  const server = new Server(
    { name: "compose", version },
    {
      capabilities: { tools: {} },
      instructions: `compose renders HTML video compositions to video files. Paths are relative to ${process.cwd()}. Lint and snapshot a composition before rendering it; render reports progress when the call carries a progress token, and a cancelled call stops its render and leaves no output.`,
    },
  );
  const byName = new Map(TOOLS.map((tool) => [tool.definition.name, tool]));
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: TOOLS.map((tool) => tool.definition) }));
  server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
    const { name, arguments: args } = request.params;
    const tool = byName.get(name);
    if (tool === undefined) {
      const closest = closestMatch(name, [...byName.keys()]);
      return failure([`${name} is not a tool of compose${closest === undefined ? "" : `; did you mean ${JSON.stringify(closest)}?`}`]);
    }
    const context: CallContext = { signal: extra.signal, progress: progressSender(extra._meta?.progressToken, extra.sendNotification) };
    const call = tool.call(args, context).catch(failureOf);
    // Kept until it ends, so that closing waits for cancelled renders to clean up.
    running.add(call);
    void call.finally(() => running.delete(call));
    return call;
  });
  return server;
}

/**
 * Serves until the client closes standard input, or SIGINT or SIGTERM: calls still running are
 * then cancelled, and this resolves once they have stopped and removed what they wrote.
 */
export async function serveMcp(version: string): Promise<void> {
  const running = new Set<Promise<unknown>>();
  const server = createServer(version, running);
  const closed = new Promise<void>((resolve) => {
    server.onclose = resolve;
  });
  await server.connect(new StdioServerTransport());
  // Closing aborts every call's signal (the SDK's doing).
  const close = () => void server.close();
  process.stdin.once("end", close);
  process.once("SIGINT", close);
  process.once("SIGTERM", close);
  try {
    await closed;
    await Promise.allSettled([...running]);
  } finally {
    process.stdin.off("end", close);
    process.off("SIGINT", close);
    process.off("SIGTERM", close);
  }
}
