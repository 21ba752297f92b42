// What /metrics shows, in one registry per process (not prom-client's global one): several bots in
// one process (tests) or several shards each keep their own figures; a shard manager adds its
// shards' to its own at each scrape (shard-metrics.ts).
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';

export interface Metrics {
  registry: Registry;
  /** Cases opened, by platform and the kb entry that diagnosed them. */
  opened: Counter<'platform' | 'entry'>;
  /** Cases resolved, by the entry of the plan that resolved them and whether the user confirmed it. */
  resolved: Counter<'entry' | 'resolution'>;
  /** Cases handed over to people after every step, by entry. */
  escalated: Counter<'entry'>;
  /** From a command or button reaching the bot to its acknowledgement leaving, per platform. */
  ack: Histogram<'platform'>;
  /** Classifying a paste, waiting for a worker included. */
  classify: Histogram;
  /** Reading a screenshot, waiting for a worker included; failures and timeouts too. */
  ocr: Histogram;
  /** Rate limits: requests a platform refused (429), and requests the client held back for a limit it knew of. */
  rateLimited: Counter<'platform' | 'kind'>;
  /** Calls to the case store that threw, by the store's method. */
  storeErrors: Counter<'operation'>;
}

export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'comfyoom_' });
  const registers = [registry];
  return {
    registry,
    opened: new Counter({ name: 'comfyoom_cases_opened_total', help: 'Cases opened, by platform and kb entry', labelNames: ['platform', 'entry'], registers }),
    resolved: new Counter({ name: 'comfyoom_cases_resolved_total', help: 'Cases resolved, by kb entry and resolution (confirmed by the user, or assumed from a later log)', labelNames: ['entry', 'resolution'], registers }),
    escalated: new Counter({ name: 'comfyoom_cases_escalated_total', help: 'Cases handed over to people after every step, by kb entry', labelNames: ['entry'], registers }),
    // Discord and Slack both allow 3 s; the buckets are finest where a bot should be.
    ack: new Histogram({ name: 'comfyoom_ack_seconds', help: 'Time from a command or button reaching the bot to its acknowledgement, per platform', labelNames: ['platform'], buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 3, 5], registers }),
    classify: new Histogram({ name: 'comfyoom_classify_seconds', help: 'Time to classify a paste, waiting for a worker included', buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5], registers }),
    // OCR's own budget is 20 s per image.
    ocr: new Histogram({ name: 'comfyoom_ocr_seconds', help: 'Time to read a screenshot, waiting for a worker included', buckets: [0.25, 0.5, 1, 2, 4, 8, 15, 20, 30], registers }),
    rateLimited: new Counter({ name: 'comfyoom_rate_limited_total', help: 'Rate limits per platform: requests refused with 429 (kind=refused), requests held back for a known limit (kind=waited)', labelNames: ['platform', 'kind'], registers }),
    storeErrors: new Counter({ name: 'comfyoom_store_errors_total', help: 'Case store calls that failed, by operation', labelNames: ['operation'], registers }),
  };
}
