// Whether dist/ (compiled by scripts/build.mjs) is as new as every source file: the bin runs it
// then, and the TypeScript sources through tsx otherwise, so an edit never runs stale code. The
// classifier bench asks too, to time what the bin runs.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const newestSource = (dir) =>
  readdirSync(dir, { withFileTypes: true }).reduce((t, e) => Math.max(t, e.isDirectory() ? newestSource(join(dir, e.name)) : statSync(join(dir, e.name)).mtimeMs), 0);

/** `root`: the package's folder. */
export function distIsFresh(root) {
  const built = join(root, 'dist', '.built');
  return existsSync(built) && statSync(built).mtimeMs >= newestSource(join(root, 'src'));
}
