/*
 * A macrotask queue of our own. Timer callbacks must each run in their own task so that the
 * microtasks a callback queues settle before the next callback runs, as in a browser; the page's
 * setTimeout is virtual, so we post messages on a private channel instead (also unclamped,
 * unlike nested native timers).
 */
const channel = new MessageChannel();
const queue: Array<() => void> = [];
channel.port1.onmessage = () => queue.shift()?.();

export function queueMacrotask(task: () => void): void {
  queue.push(task);
  channel.port2.postMessage(null);
}

export function nextMacrotask(): Promise<void> {
  return new Promise((resolve) => queueMacrotask(resolve));
}
