// Compiles src/ to dist/ at install, so the CLI and the bot start from JavaScript instead of
// compiling TypeScript at every start (tsx: some 300 ms). Types are checked by `npm run typecheck`
// and the tests, not here. bin/comfyoom.mjs runs dist/ only while it is as new as every source
// file, and the sources through tsx otherwise, so an edit never runs stale code.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
let tsc;
try {
  tsc = createRequire(join(root, 'package.json')).resolve('typescript/bin/tsc');
} catch {
  // An install without dev dependencies: the sources run through tsx instead.
  console.log('comfyoom: typescript is not installed, so nothing is compiled; the sources run as they are');
  process.exit(0);
}
rmSync(dist, { recursive: true, force: true });
const r = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
if (r.status !== 0) {
  rmSync(dist, { recursive: true, force: true });
  console.log('comfyoom: compiling failed; the sources run through tsx instead');
  process.exit(0);
}
// Plain JavaScript modules (worker entry points) are not compiled, only copied beside the rest.
const copyMjs = (from, to) => {
  for (const e of readdirSync(from, { withFileTypes: true })) {
    if (e.isDirectory()) copyMjs(join(from, e.name), join(to, e.name));
    else if (e.name.endsWith('.mjs') && existsSync(to)) cpSync(join(from, e.name), join(to, e.name));
  }
};
copyMjs(join(root, 'src'), dist);
writeFileSync(join(dist, '.built'), new Date().toISOString() + '\n');
