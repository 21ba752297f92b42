// In-flight work, for a graceful stop: every event a platform delivers runs through the gate, which
// remembers it until it settles; once closed, it lets nothing new in and tells when what it let in
// is done.
export type Admit = <T>(work: () => Promise<T>) => Promise<T | undefined>;

/** Runs the work at once: adapters started without a gate (tests, benches). */
export const admitAll: Admit = (work) => work();

export class Gate {
  private open = true;
  private readonly running = new Set<Promise<unknown>>();

  readonly admit: Admit = async (work) => {
    if (!this.open) return undefined;
    const run = Promise.resolve().then(work);
    this.running.add(run);
    try {
      return await run;
    } finally {
      this.running.delete(run);
    }
  };

  get inFlight(): number {
    return this.running.size;
  }

  /** Lets nothing new in; resolves when what was let in has settled, or after `withinMs`, with how much still runs. */
  async close(withinMs: number): Promise<number> {
    this.open = false;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, withinMs)));
    while (this.running.size) {
      const settled = Promise.allSettled([...this.running]).then(() => true);
      if (!(await Promise.race([settled, late.then(() => false)]))) break;
    }
    clearTimeout(timer);
    return this.running.size;
  }
}
