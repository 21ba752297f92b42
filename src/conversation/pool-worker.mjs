// A worker of the pool (pool.ts). Plain JavaScript, so Node can start it without a loader: it
// registers tsx, as bin/comfyoom.mjs does, then serves the TypeScript tasks.
import { register } from 'tsx/esm/api';

register();
const tasks = await import('./pool-tasks.ts');

export const classify = tasks.classify;
