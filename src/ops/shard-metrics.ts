// /metrics of a sharded bot: each shard counts in its own process (its acknowledgements, cases,
// classifications), and only the manager has the port. At each scrape the manager asks every shard
// for its figures over the IPC channel ShardingManager keeps, and adds them to its own
// (prom-client's aggregation, which sums counters and histograms across processes).
import type { ShardingManager } from 'discord.js';
import type { MetricObjectWithValues, MetricValue, Registry } from 'prom-client';

type Figures = MetricObjectWithValues<MetricValue<string>>[];

/** The key of a manager's request for a shard's figures, and of the shard's answer. */
const REQUEST = 'comfyoomMetrics';
/** A shard that has not answered by then is down or busy; the scrape goes on without it (/healthz names a shard that is down). */
const ANSWER_MS = 1_000;

let requests = 0;

/** In a shard: answers the manager's requests with this process's figures. */
export function answerMetricsRequests(registry: Registry): void {
  process.on('message', (m: unknown) => {
    const id = (m as Record<string, unknown> | null)?.[REQUEST];
    if (typeof id !== 'number') return;
    void registry.getMetricsAsJSON().then((figures) => process.send?.({ [REQUEST]: id, figures }));
  });
}

/** In the manager: the figures of every shard that answers in time. */
export async function shardMetrics(manager: Pick<ShardingManager, 'shards'>): Promise<Figures[]> {
  const id = ++requests;
  const answers = await Promise.all(
    [...manager.shards.values()].map(
      (shard) =>
        new Promise<Figures | undefined>((resolve) => {
          const done = (figures?: Figures) => {
            clearTimeout(timer);
            shard.off('message', onMessage);
            resolve(figures);
          };
          const onMessage = (m: unknown) => {
            const answer = m as { [REQUEST]?: number; figures?: Figures } | null;
            if (answer?.[REQUEST] === id) done(answer.figures);
          };
          const timer = setTimeout(done, ANSWER_MS);
          shard.on('message', onMessage);
          shard.send({ [REQUEST]: id }).catch(() => done());
        }),
    ),
  );
  return answers.filter((a): a is Figures => a !== undefined);
}
