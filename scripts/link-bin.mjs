// npm links the bins of dependencies, never the root package's own, so `npx comfyoom` (and the
// corpus scorer's `npx --no-install comfyoom`) would not find ours. Link it after every install.
import { chmodSync, mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const binDir = join(root, 'node_modules', '.bin');
const target = join(root, 'bin', 'comfyoom.mjs');
mkdirSync(binDir, { recursive: true });
const link = join(binDir, 'comfyoom');
rmSync(link, { force: true });
symlinkSync(relative(binDir, target), link);
chmodSync(target, 0o755);
