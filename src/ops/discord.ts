// Discord's figures, read off the discord.js client from outside the adapter: an interaction's
// acknowledgement is the callback request its handler makes, timed from the interaction's arrival;
// a rate limit is a 429 answer, or the REST manager holding a request back for a bucket it knows.
import { Events, RESTEvents, type Client } from 'discord.js';
import type { Metrics } from './metrics.ts';

/** Interactions not acknowledged by then (a failed handler) are forgotten; Discord allows 3 s. */
const FORGET_AFTER_MS = 60_000;
const CALLBACK = /^\/interactions\/(\d+)\/[^/]+\/callback$/;

export function measureDiscord(client: Client, m: Metrics): void {
  const arrived = new Map<string, number>();
  client.on(Events.InteractionCreate, (i) => {
    const now = performance.now();
    // Oldest first (a Map keeps insertion order): stop at the first one still young.
    for (const [id, at] of arrived) {
      if (now - at < FORGET_AFTER_MS) break;
      arrived.delete(id);
    }
    arrived.set(i.id, now);
  });
  client.rest.on(RESTEvents.Response, (request, response) => {
    if (response.status === 429) m.rateLimited.inc({ platform: 'discord', kind: 'refused' });
    const id = CALLBACK.exec(String(request.path))?.[1];
    const at = id === undefined ? undefined : arrived.get(id);
    // A refused callback is no acknowledgement; its retry may be.
    if (at === undefined || !response.ok) return;
    arrived.delete(id!);
    m.ack.observe({ platform: 'discord' }, (performance.now() - at) / 1000);
  });
  client.rest.on(RESTEvents.RateLimited, () => m.rateLimited.inc({ platform: 'discord', kind: 'waited' }));
}
