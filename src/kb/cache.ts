// The kb as the running bot and CLI open it: from a JSON copy of the last validated load, kept
// while no kb file (and no line of the loader or its schema) has changed since. Parsing the YAML
// and checking it with zod take most of a cold start; `kb lint` and tests always read the YAML.
// Nothing here may import the YAML parser or the schema: on a hit, neither is ever loaded.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_KB_DIR, ROOT } from './dir.ts';
import type { Kb } from './load.ts';

const here = dirname(fileURLToPath(import.meta.url));
const CACHE_DIR = join(ROOT, 'node_modules', '.cache', 'comfyoom');
/** Copies kept, of different folders (a user's COMFYOOM_KB, the tests' temporary ones): the oldest go beyond it. */
const KEPT_COPIES = 8;
/** The loader and schema as they run (.ts from source, .js when built): a change to either invalidates. */
const CODE = ['load', 'schema'].map((m) => join(here, `${m}${import.meta.url.endsWith('.js') ? '.js' : '.ts'}`));

/** Which kb folder a cached copy is of (a user's COMFYOOM_KB has its own). */
const folderKey = (dir: string) => createHash('sha1').update(resolve(dir)).digest('hex').slice(0, 8);

/** Every kb file's name, size and modification time, with the loader's code: what a cached kb depends on. */
function fingerprint(dir: string): string {
  const hash = createHash('sha1');
  const walk = (d: string) => {
    // By code unit: any fixed order will do, and localeCompare's first call starts ICU's collator (a few ms of every start).
    for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.ya?ml$/.test(e.name)) {
        const s = statSync(p);
        hash.update(`${p}\0${s.size}\0${s.mtimeMs}\n`);
      }
    }
  };
  walk(dir);
  for (const file of CODE) hash.update(readFileSync(file));
  return hash.digest('hex').slice(0, 16);
}

type Stored = Omit<Kb, 'steps' | 'flags'> & { steps: [string, unknown][]; flags: [string, unknown][] };

const revive = (s: Stored): Kb => ({ ...s, steps: new Map(s.steps), flags: new Map(s.flags) }) as Kb;
const store = (kb: Kb): Stored => ({ ...kb, steps: [...kb.steps], flags: [...kb.flags] }) as Stored;

/**
 * The validated kb of `dir`, from the cache when every file is as it was, else loaded (and
 * validated) from the YAML and cached for the next start. A cache that cannot be written (a
 * read-only install) only costs the next start its speed.
 */
export async function openKb(dir: string = DEFAULT_KB_DIR): Promise<Kb> {
  const folder = folderKey(dir);
  let file: string | undefined;
  try {
    file = join(CACHE_DIR, `kb-${folder}-${fingerprint(dir)}.json`);
    return revive(JSON.parse(readFileSync(file, 'utf8')) as Stored);
  } catch {
    // No copy, or the folder is missing: the loader reads (and reports) it.
  }
  const { loadKb } = await import('./load.ts');
  const kb = loadKb(dir);
  if (file) {
    try {
      mkdirSync(CACHE_DIR, { recursive: true });
      // The copies of this folder's earlier versions will not be read again.
      for (const old of readdirSync(CACHE_DIR)) if (old.startsWith(`kb-${folder}-`)) rmSync(join(CACHE_DIR, old), { force: true });
      const tmp = `${file}.${process.pid}.tmp`;
      writeFileSync(tmp, JSON.stringify(store(kb)));
      renameSync(tmp, file);
      // Every other folder opened once left a copy behind: without a bound they piled up for good.
      const copies = readdirSync(CACHE_DIR)
        .filter((f) => /^kb-.*\.json$/.test(f))
        .map((f) => ({ f, at: statSync(join(CACHE_DIR, f)).mtimeMs }))
        .sort((a, b) => b.at - a.at);
      for (const { f } of copies.slice(KEPT_COPIES)) rmSync(join(CACHE_DIR, f), { force: true });
    } catch {
      // Read-only: fine.
    }
  }
  return kb;
}
