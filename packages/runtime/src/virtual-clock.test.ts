import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "../test/page-harness.js";

const ROOT = '<div data-composition-id="clock" data-width="320" data-height="180" data-duration="5"></div>';
const EPOCH = "2024-01-01T00:00:00.000Z";

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness();
});
afterAll(async () => {
  await harness?.close();
});

describe("time sources", () => {
  it("start at composition time 0 on a fixed date and follow seek, not the wall clock", async () => {
    const page = await harness.open(`${ROOT}<script>
      window.atLoad = { perf: performance.now(), now: Date.now(), date: new Date().toISOString(), text: Date() };
    </script>`);
    await new Promise((done) => setTimeout(done, 100));
    const read = () =>
      page.evaluate(() => ({
        perf: performance.now(),
        now: Date.now(),
        date: new Date().toISOString(),
        explicit: new Date(Date.UTC(2020, 5, 1)).toISOString(),
        isDate: new Date() instanceof Date && Object.prototype.toString.call(new Date()) === "[object Date]",
      }));

    const atLoad = await page.evaluate(() => (window as any).atLoad);
    expect(atLoad).toMatchObject({ perf: 0, now: Date.parse(EPOCH), date: EPOCH });
    expect(atLoad.text).toBe(new Date(Date.parse(EPOCH)).toString());
    expect(await read()).toMatchObject({ perf: 0, now: Date.parse(EPOCH), date: EPOCH });

    await page.evaluate(() => window.__compose!.seek(2.5));
    expect(await read()).toEqual({
      perf: 2500,
      now: Date.parse(EPOCH) + 2500,
      date: "2024-01-01T00:00:02.500Z",
      explicit: "2020-06-01T00:00:00.000Z",
      isDate: true,
    });

    await page.evaluate(() => window.__compose!.seek(0.25));
    expect(await read()).toMatchObject({ perf: 250, date: "2024-01-01T00:00:00.250Z" });
    await page.close();
  });

  it("seeds Math.random: equal across page loads, different for another seed", async () => {
    const html = `${ROOT}<script>window.drawn = [Math.random(), Math.random(), Math.random()];</script>`;
    const draw = async (seed?: number) => {
      const page = await harness.open(html, seed === undefined ? {} : { config: { seed } });
      const drawn = await page.evaluate(() => (window as any).drawn as number[]);
      await page.close();
      return drawn;
    };
    const first = await draw();
    expect(await draw()).toEqual(first);
    expect(await draw(42)).toEqual(await draw(42));
    expect(await draw(42)).not.toEqual(first);
    for (const value of first) expect(value >= 0 && value < 1).toBe(true);
  });

  it("seeds crypto.getRandomValues and crypto.randomUUID too", async () => {
    const html = `${ROOT}<script>window.drawn = [Array.from(crypto.getRandomValues(new Uint32Array(4))), crypto.randomUUID()];</script>`;
    const draw = async () => {
      const page = await harness.open(html);
      const drawn = await page.evaluate(() => (window as any).drawn as [number[], string]);
      await page.close();
      return drawn;
    };
    const first = await draw();
    expect(await draw()).toEqual(first);
    expect(new Set(first[0]).size).toBe(4);
    expect(first[1]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});

describe("timers", () => {
  const TIMERS = `${ROOT}<script>
    window.log = [];
    const note = (name) => log.push(name + "@" + performance.now());
    setTimeout(() => note("zero"), 0);
    setTimeout(() => note("t500"), 500);
    setTimeout((a, b) => note("t250:" + a + b), 250, "x", "y");
    const cancelled = setTimeout(() => note("cancelled"), 100);
    clearTimeout(cancelled);
    const every = setInterval(() => {
      note("every");
      if (performance.now() >= 1000) clearInterval(every);
    }, 400);
    setTimeout(() => {
      note("t600");
      setTimeout(() => note("t600+0"), 0);
      setTimeout(() => note("t600+100"), 100);
    }, 600);
  </script>`;

  it("run zero-delay timers before ready, the rest in due-time order as seek passes them", async () => {
    const page = await harness.open(TIMERS);
    const log = () => page.evaluate(() => (window as any).log as string[]);
    expect(await log()).toEqual(["zero@0"]);

    await page.evaluate(() => window.__compose!.seek(0.6));
    expect(await log()).toEqual(["zero@0", "t250:xy@250", "every@400", "t500@500", "t600@600", "t600+0@600"]);

    await page.evaluate(() => window.__compose!.seek(2));
    expect((await log()).slice(6)).toEqual(["t600+100@700", "every@800", "every@1200"]);

    // Backward: the clock goes back, nothing fires again, and going forward fires nothing twice.
    await page.evaluate(() => window.__compose!.seek(0.1));
    expect(await page.evaluate(() => performance.now())).toBe(100);
    await page.evaluate(() => window.__compose!.seek(3));
    expect(await log()).toHaveLength(9);
    await page.close();
  });

  it("fire at frame times whose product with 1000 is not exact in floating point", async () => {
    const page = await harness.open(`${ROOT}<script>
      window.fired = [];
      setTimeout(() => fired.push(performance.now()), 32300);
    </script>`);
    // 969 / 30 * 1000 is 32299.999999999996.
    await page.evaluate((t) => window.__compose!.seek(t), 969 / 30);
    expect(await page.evaluate(() => [(window as any).fired, performance.now()])).toEqual([[32300], 32300]);
    await page.close();
  });

  it("do not deadlock on timers that keep rescheduling themselves with no delay", async () => {
    const page = await harness.open(`${ROOT}<script>
      window.chained = 0;
      (function chain() { if (++window.chained < 100) setTimeout(chain, 0); })();
      window.awaited = 0;
      (async () => { while (++window.awaited < 100) await new Promise((resolve) => setTimeout(resolve)); })();
      window.interval = 0;
      const every = setInterval(() => { if (++window.interval === 100) clearInterval(every); }, 0);
    </script>`);
    const counts = () => page.evaluate(() => [(window as any).chained, (window as any).awaited, (window as any).interval]);
    // HTML clamps delays of timers nested more than 5 deep to 4 ms: only the first ones run at 0.
    for (const count of await counts()) expect(count).toBeGreaterThanOrEqual(5);
    for (const count of await counts()) expect(count).toBeLessThan(10);
    await page.evaluate(() => window.__compose!.seek(1));
    expect(await counts()).toEqual([100, 100, 100]);
    await page.close();
  });
});

describe("requestAnimationFrame", () => {
  it("runs queued callbacks once per seek, as a frame at the seek time", async () => {
    const page = await harness.open(`${ROOT}<script>
      window.frames = [];
      requestAnimationFrame((ts) => frames.push("first@" + ts + "/" + performance.now()));
      const dropped = requestAnimationFrame(() => frames.push("dropped"));
      cancelAnimationFrame(dropped);
      requestAnimationFrame(() => cancelAnimationFrame(sameFrame));
      const sameFrame = requestAnimationFrame(() => frames.push("cancelled by an earlier callback"));
      (function loop(ts) {
        if (ts !== undefined) frames.push("loop@" + ts);
        requestAnimationFrame(loop);
      })();
    </script>`);
    const frames = () => page.evaluate(() => (window as any).frames as string[]);
    expect(await frames()).toEqual([]);
    await page.evaluate(() => window.__compose!.seek(0.5));
    expect(await frames()).toEqual(["first@500/500", "loop@500"]);
    await page.evaluate(() => window.__compose!.seek(0.5));
    await page.evaluate(() => window.__compose!.seek(0.2));
    expect(await frames()).toEqual(["first@500/500", "loop@500", "loop@500", "loop@200"]);
    await page.close();
  });
});
