/** glibc's tuning for a long-running bot (see malloc.mjs). */
export const MALLOC_TUNING: { MALLOC_MMAP_THRESHOLD_: string };
/** Starts this process again in its place with the tuning, where it is not set and Node can. */
export function withTunedMalloc(): void;
