/**
 * What the page asked of a graphics API the render's browser cannot give. The headless browser
 * has no WebGPU adapter: `navigator.gpu.requestAdapter()` answers null (or there is no
 * `navigator.gpu`), and a page that draws with it renders blank without an error. Recording the
 * question lets the renderer say so.
 */
const asked: string[] = [];

export function watchGraphicsApis(): void {
  const gpu = (navigator as Navigator & { gpu?: { requestAdapter?: (...args: unknown[]) => Promise<unknown> } }).gpu;
  if (gpu?.requestAdapter) {
    const requestAdapter = gpu.requestAdapter.bind(gpu);
    gpu.requestAdapter = async (...args: unknown[]) => {
      const adapter = await requestAdapter(...args);
      if (adapter === null) note("WebGPU (navigator.gpu.requestAdapter() answered null)");
      return adapter;
    };
    return;
  }
  if (!("gpu" in Navigator.prototype)) {
    Object.defineProperty(Navigator.prototype, "gpu", {
      configurable: true,
      get() {
        note("WebGPU (navigator.gpu is undefined)");
        return undefined;
      },
    });
  }
}

function note(what: string): void {
  if (!asked.includes(what)) asked.push(what);
}

/** The graphics APIs the page asked for and did not get, as messages name them. */
export function unavailableGraphics(): string[] {
  return [...asked];
}
