import { startServer } from "../test/support/serve.js";
import { eventually, openStream, request } from "../test/support/http.js";
const server = await startServer(["--shutdown-grace", process.argv[2] ?? "2", "--max-concurrent-renders", "2"]);
const streams = await Promise.all([0, 1].map(() => openStream(server.url, { composition: "blocker.html", quality: "draft", workers: 1 })));
await eventually(async () => ((await request(`${server.url}/render/queue`)).json.activeRenders === 2 ? true : undefined));
const t = Date.now();
const exit = await server.stop("SIGTERM");
console.log("stop ms", Date.now() - t, exit.code, exit.stdout.split("\n").slice(-3).join(" | "));
