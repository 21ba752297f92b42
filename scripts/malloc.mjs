// glibc gives memory back to the system at once only for blocks it mapped on their own, and after
// each large block is freed it raises the size from which it maps them (up to 32 MB). So after the
// first 8 MB log, the next ones come from its heap and stay resident when the bot is quiet again:
// measured a minute after a burst of 20 screenshots and 20 logs (npm run bench -- footprint),
// 329-383 MiB by default and 208 MiB with the size fixed at 1 MiB. glibc reads it once, at start.
export const MALLOC_TUNING = { MALLOC_MMAP_THRESHOLD_: '1048576' };

/**
 * Starts this process again in its place with the tuning, where it is not set and Node can
 * (process.execve: Node 22.15 and later). The Docker image sets it in its environment.
 */
export function withTunedMalloc() {
  if (process.platform !== 'linux' || process.env.MALLOC_MMAP_THRESHOLD_ !== undefined || typeof process.execve !== 'function') return;
  process.execve(process.execPath, [process.execPath, ...process.execArgv, ...process.argv.slice(1)], { ...process.env, ...MALLOC_TUNING });
}
