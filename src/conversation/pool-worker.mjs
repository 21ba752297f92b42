// A worker of the pool (pool.ts). Plain JavaScript, so Node can start it without a loader: built
// (dist/), the compiled tasks sit beside it; from the sources, it registers tsx as
// bin/comfyoom.mjs does and serves the TypeScript tasks.
import { existsSync } from 'node:fs';

const compiled = new URL('./pool-tasks.js', import.meta.url);
let tasks;
if (existsSync(compiled)) tasks = await import(compiled.href);
else {
  const { register } = await import('tsx/esm/api');
  register();
  tasks = await import('./pool-tasks.ts');
}

export const { classify, storedPaste, storedFacts, wipe, prepareForOcr } = tasks;
