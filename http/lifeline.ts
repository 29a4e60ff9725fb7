/**
 * A service spawned by `cichat serve` (or a test) stops when its parent is gone (issue 27).
 * The parent opens an IPC channel to it (`stdio: [..., 'ipc']`); the kernel closes that channel
 * however the parent ends (SIGKILL included), and the child sees `disconnect`. As a second
 * watch, the parent's pid is compared once a second (a re-parented child has another ppid).
 * A service started by hand (`npm run backend`) has no channel and is not watched.
 */
export function onParentGone(stop: () => void, pollMs = 1000): boolean {
  if (!process.channel) return false;
  let fired = false;
  const fire = (): void => {
    if (fired) return;
    fired = true;
    clearInterval(poll);
    stop();
  };
  const parent = process.ppid;
  const poll = setInterval(() => {
    if (process.ppid !== parent) fire();
  }, pollMs);
  poll.unref();
  process.on('disconnect', fire);
  // The channel alone must not keep the process alive (the servers do).
  process.channel.unref();
  return true;
}
