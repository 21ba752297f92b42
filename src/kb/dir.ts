// Where the kb lives: the bundled folder, or a user's own with COMFYOOM_KB. Its own room, so the
// loader and the cache that both need it do not import each other.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package's root: src/kb (or dist/kb) sits two levels below it. */
export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const DEFAULT_KB_DIR = join(ROOT, 'kb');
/** The kb folder in use: a user's own with COMFYOOM_KB, else the bundled one. */
export const kbDir = () => process.env.COMFYOOM_KB || DEFAULT_KB_DIR;
