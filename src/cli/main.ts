import { loadKb, KbError } from '../kb/load.ts';

export async function main(argv: string[]): Promise<number> {
  if (argv[0] === 'kb' && argv[1] === 'lint') {
    try {
      const kb = loadKb();
      console.log(`kb ok: ${kb.entries.length} entries, ${kb.steps.size} steps, ${kb.signatures.length} signatures, ${kb.flags.size} flags (version ${kb.version})`);
      return 0;
    } catch (e) {
      if (e instanceof KbError) { console.error(e.message); return 1; }
      throw e;
    }
  }
  console.log('usage: comfyoom kb lint');
  return 2;
}
