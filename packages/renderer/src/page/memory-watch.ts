import { readdir, readFile } from "node:fs/promises";

/**
 * How often a browser's memory is read. A page can grow past its limit by what it allocates in
 * this time, and reading costs well under a millisecond: ten times a second.
 */
const POLL_MS = 100;

/** The browser's processes are listed again every this many reads: a renderer may start for a new frame. */
const LIST_EVERY = 10;

interface BrowserProcess {
  pid: number;
  renderer: boolean;
}

/** A /proc file's text; undefined when the process is gone (or there is no /proc). */
function readProc(path: string): Promise<string | undefined> {
  return readFile(path, "utf8").catch(() => undefined);
}

/** `pid` and every process below it, from the children each of its threads started; none when it is gone. */
async function processTree(pid: number): Promise<number[]> {
  const tasks = await readdir(`/proc/${pid}/task`).catch(() => undefined);
  if (tasks === undefined) return [];
  const children = await Promise.all(tasks.map((task) => readProc(`/proc/${pid}/task/${task}/children`)));
  const below = children.flatMap((text) => (text ?? "").split(" ").filter(Boolean).map(Number));
  return [pid, ...(await Promise.all(below.map(processTree))).flat()];
}

async function listProcesses(browserPid: number): Promise<BrowserProcess[]> {
  return Promise.all(
    (await processTree(browserPid)).map(async (pid) => ({ pid, renderer: (await readProc(`/proc/${pid}/cmdline`))?.includes("--type=renderer\0") ?? false })),
  );
}

/**
 * The memory a process holds for what it does: its private pages and the shared memory it maps
 * (RssAnon + RssShmem), in bytes. Its program and libraries, which every browser shares, are left
 * out; shared memory (the compositor's tiles) counts in each process that maps it, which errs on
 * the side of the machine.
 */
async function heldMemory(pid: number): Promise<number> {
  const status = (await readProc(`/proc/${pid}/status`)) ?? "";
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? 0);
  return (kib("RssAnon") + kib("RssShmem")) * 1024;
}

/**
 * Watches the memory of a browser's processes (a render gives each page a browser of its own):
 * the script heap, typed arrays, canvases, decoded images and the compositor's tiles, wherever the
 * browser keeps them. Once they hold more than `limitBytes`, `over(bytes)` is called, once, and the
 * browser's renderer processes are killed, which frees what the page took. Stops when told to, or
 * when the browser is gone. Where there is no /proc (not Linux), nothing is measured.
 */
export function watchMemory(browserPid: number, limitBytes: number, over: (bytes: number) => void): () => void {
  let stopped = false;
  let processes: BrowserProcess[] = [];
  let timer: NodeJS.Timeout | undefined;
  const measure = async () => (await Promise.all(processes.map(({ pid }) => heldMemory(pid)))).reduce((sum, bytes) => sum + bytes, 0);
  const poll = async (count: number) => {
    if (count % LIST_EVERY === 0) processes = await listProcesses(browserPid);
    let held = await measure();
    if (held > limitBytes) {
      // Measured again on a fresh list, so that a process id another process took since is neither counted nor killed.
      processes = await listProcesses(browserPid);
      held = await measure();
    }
    if (stopped || processes.length === 0) return;
    if (held > limitBytes) {
      stopped = true;
      over(held);
      for (const { pid, renderer } of processes) if (renderer) killQuietly(pid);
      return;
    }
    timer = setTimeout(() => void poll(count + 1), POLL_MS);
    timer.unref();
  };
  void poll(0);
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

function killQuietly(pid: number): void {
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // Gone already.
  }
}
