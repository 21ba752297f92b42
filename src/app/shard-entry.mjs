// The entry of a shard process (shard.ts), which the ShardingManager (shards.ts) forks. Plain
// JavaScript, so Node can start it without a loader: built (dist/), the compiled shard sits beside
// it; from the sources, it registers tsx as bin/comfyoom.mjs does.
import { existsSync } from 'node:fs';

const compiled = new URL('./shard.js', import.meta.url);
if (existsSync(compiled)) await import(compiled.href);
else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('./shard.ts');
}
