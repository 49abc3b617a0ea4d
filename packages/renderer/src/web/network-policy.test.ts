import { describe, expect, it } from "vitest";
import { effectivePolicy, refusalOf, ruleOnConnection } from "./network-policy.js";

const PROJECT = "http://127.0.0.1:40000";
const pub = { mode: "public" as const, allowHosts: [] };

describe("refusalOf", () => {
  it("public: refuses loopback, private, link-local, cloud metadata, unique-local and CGNAT addresses", async () => {
    for (const url of [
      "http://127.0.0.1:8080/",
      "http://[::1]/",
      "http://10.1.2.3/",
      "http://192.168.0.10/",
      "http://172.16.5.5/",
      "http://169.254.169.254/latest/meta-data/",
      "http://[fd00:ec2::254]/",
      "http://100.100.100.200/",
      "http://0.0.0.0:9000/",
      "http://[::ffff:127.0.0.1]/",
    ]) {
      expect(await refusalOf(url, pub, PROJECT), url).toBeDefined();
    }
  });

  it("public: resolves names first, so a name for a loopback address is refused too", async () => {
    expect(await refusalOf("http://localhost:5000/x.png", pub, PROJECT)).toMatch(/resolves to (127\.0\.0\.1|::1), a loopback address/);
  });

  it("public: allows public addresses and the project's own origin, refuses file: and other schemes", async () => {
    expect(await refusalOf("https://8.8.8.8/font.woff2", pub, PROJECT)).toBeUndefined();
    expect(await refusalOf(`${PROJECT}/index.html`, pub, PROJECT)).toBeUndefined();
    expect(await refusalOf("data:image/png;base64,AAAA", pub, PROJECT)).toBeUndefined();
    expect(await refusalOf("file:///etc/passwd", pub, PROJECT)).toBe("file: URLs are not allowed");
    expect(await refusalOf("ftp://8.8.8.8/x", pub, PROJECT)).toBe("ftp: URLs are not allowed");
  });

  it("none: only the project; --allow-host names are allowed whatever they resolve to", async () => {
    const none = { mode: "none" as const, allowHosts: ["localhost", "*.example.com"] };
    expect(await refusalOf("https://8.8.8.8/x", none, PROJECT)).toBe("only the project is allowed");
    expect(await refusalOf("http://localhost:1/x", none, PROJECT)).toBeUndefined();
    expect(await refusalOf("https://cdn.example.com/x", none, PROJECT)).toBeUndefined();
    expect(await refusalOf("https://example.com.evil.net/x", none, PROJECT)).toBeDefined();
  });

  it("all: nothing is refused", async () => {
    expect(await refusalOf("file:///etc/passwd", { mode: "all", allowHosts: [] }, PROJECT)).toBeUndefined();
  });
});

describe("ruleOnConnection (the server's own connections: webhooks)", () => {
  it("public: names the checked public address to connect to, refuses a name for a private one and one that does not resolve", async () => {
    expect(await ruleOnConnection("https://8.8.8.8/hook", pub)).toEqual({ address: "8.8.8.8" });
    expect((await ruleOnConnection("http://localhost:5000/hook", pub)).reason).toMatch(/resolves to (127\.0\.0\.1|::1), a loopback address/);
    expect(await ruleOnConnection("http://no-such-host.invalid/hook", pub)).toEqual({ reason: "its host no-such-host.invalid does not resolve" });
  });

  it("only http and https; a host allowed by name goes as it is, under any mode", async () => {
    expect(await ruleOnConnection("ftp://8.8.8.8/x", pub)).toEqual({ reason: "ftp: URLs are not allowed, only http and https" });
    const allowed = { mode: "none" as const, allowHosts: ["127.0.0.1"] };
    expect(await ruleOnConnection("http://127.0.0.1:9/hook", allowed)).toEqual({});
    expect((await ruleOnConnection("https://8.8.8.8/hook", allowed)).reason).toMatch(/network policy is none/);
    expect(await ruleOnConnection("http://10.0.0.1/hook", { mode: "all", allowHosts: [] })).toEqual({});
  });
});

describe("effectivePolicy", () => {
  it("a request narrows the operator's mode but never widens it; its hosts count only where the operator accepts them", () => {
    const operator = { mode: "public" as const, allowHosts: ["a.example"], acceptRequestHosts: false };
    expect(effectivePolicy(operator, { network: "all", allowHosts: ["b.example"] })).toEqual({ mode: "public", allowHosts: ["a.example"] });
    expect(effectivePolicy(operator, { network: "none" })).toEqual({ mode: "none", allowHosts: ["a.example"] });
    expect(effectivePolicy({ ...operator, acceptRequestHosts: true }, { allowHosts: ["b.example"] }).allowHosts).toEqual(["a.example", "b.example"]);
    expect(effectivePolicy(undefined, {})).toEqual({ mode: "all", allowHosts: [] });
  });
});
