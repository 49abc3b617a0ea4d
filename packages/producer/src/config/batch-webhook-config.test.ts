/** The batch limits and the webhook secret of compose serve: flags, environment, defaults. */
import { tmpdir } from "node:os";
import { describe, expect, it } from "vitest";
import { serverConfigFromFlags } from "./server-config.js";

const serve = (flags: Record<string, string>, env: Record<string, string> = {}) =>
  serverConfigFromFlags({ projects: tmpdir(), outputs: tmpdir(), ...flags }, env, tmpdir());

describe("batch limits", () => {
  it("default to 10,000 rows and 16 MiB", () => {
    expect(serve({})).toMatchObject({ maxBatchRows: 10_000, maxBatchBodyBytes: 16 * 1024 * 1024 });
  });

  it("come from the flags, else the environment; the flag wins", () => {
    expect(serve({}, { COMPOSE_MAX_BATCH_ROWS: "50", COMPOSE_MAX_BATCH_BODY_MIB: "2" })).toMatchObject({
      maxBatchRows: 50,
      maxBatchBodyBytes: 2 * 1024 * 1024,
    });
    expect(serve({ maxBatchRows: "7", maxBatchBodyMib: "3" }, { COMPOSE_MAX_BATCH_ROWS: "nonsense" })).toMatchObject({
      maxBatchRows: 7,
      maxBatchBodyBytes: 3 * 1024 * 1024,
    });
  });

  it("refuse values outside their range in one line", () => {
    expect(() => serve({ maxBatchRows: "0" })).toThrow("--max-batch-rows must be an integer from 1 to 100000 (got 0)");
    expect(() => serve({}, { COMPOSE_MAX_BATCH_BODY_MIB: "2000" })).toThrow("COMPOSE_MAX_BATCH_BODY_MIB must be an integer from 1 to 1024 (got 2000)");
  });
});

describe("the webhook secret", () => {
  it("comes from --webhook-secret, else COMPOSE_WEBHOOK_SECRET; an empty variable is unset, an empty flag a mistake", () => {
    expect(serve({}).webhookSecret).toBeUndefined();
    expect(serve({}, { COMPOSE_WEBHOOK_SECRET: "" }).webhookSecret).toBeUndefined();
    expect(serve({}, { COMPOSE_WEBHOOK_SECRET: "from-env" }).webhookSecret).toBe("from-env");
    expect(serve({ webhookSecret: "from-flag" }, { COMPOSE_WEBHOOK_SECRET: "from-env" }).webhookSecret).toBe("from-flag");
    expect(() => serve({ webhookSecret: "" })).toThrow("--webhook-secret must be a non-empty token without spaces");
  });
});
