// Work spread over turns of the event loop. A chat platform may deliver hundreds of commands at
// once; reading each and acknowledging it is a millisecond or so of the event loop, and what each
// then needs (calls to the platform, storing, rendering) a few more: all of it in one turn would
// hold up every timer and every later acknowledgement for seconds. What awaits `turn()` goes on a
// few pieces a turn, acknowledgements first, and whatever arrives meanwhile is read between turns.

/** `ack`: reading a delivery up to its acknowledgement (Slack and Discord allow 3 s); `work`: what follows. */
export type Lane = 'ack' | 'work';

/** What each lane lets through per turn, in pieces of a few milliseconds: a few dozen milliseconds in all. */
const PER_TURN: Record<Lane, number> = { ack: 16, work: 4 };

/** A piece's weight, in ordinary pieces: a large file's decoding takes a few milliseconds per megabyte. */
export const weightOf = (bytes: number) => Math.min(PER_TURN.work, 1 + Math.floor(bytes / 2_000_000));

export class Pace {
  private readonly waiting: Record<Lane, { go: () => void; weight: number }[]> = { ack: [], work: [] };
  private scheduled = false;

  /** Resolves in a later turn of the event loop, one in which few other pieces go on. */
  turn(lane: Lane = 'work', weight = 1): Promise<void> {
    return new Promise((go) => {
      this.waiting[lane].push({ go, weight });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(this.release);
      }
    });
  }

  // An immediate set from an immediate runs in the next turn, after that turn's timers and I/O.
  private readonly release = () => {
    // While acknowledgements queue, work goes on one piece a turn: never starved, never in their way.
    const work = this.take('work', this.waiting.ack.length ? 1 : PER_TURN.work);
    for (const piece of [...this.take('ack', PER_TURN.ack), ...work]) piece.go();
    this.scheduled = this.waiting.ack.length + this.waiting.work.length > 0;
    if (this.scheduled) setImmediate(this.release);
  };

  /** The first waiting pieces of a lane that fit in `budget`, at least one. */
  private take(lane: Lane, budget: number) {
    const queue = this.waiting[lane];
    let n = 0;
    for (let used = 0; n < queue.length && (n === 0 || used + queue[n]!.weight <= budget); n++) used += queue[n]!.weight;
    return queue.splice(0, n);
  }
}
