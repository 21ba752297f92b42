// The command line: the same engine the chat adapters use, for people and scripts.
import { parseArgs } from 'node:util';
import { createClassifier } from '../classify/classify.ts';
import { loadKb, KbError, DEFAULT_KB_DIR } from '../kb/load.ts';
import { readPaste, renderOne, runBatch, UserError } from './diagnose.ts';

const HELP = `comfyoom — troubleshoot ComfyUI out-of-memory errors

Usage:
  comfyoom diagnose [FILE|-] [--json] [--lang en|zh]   diagnose one paste (stdin when no FILE)
  comfyoom diagnose --batch FILE.jsonl                 one JSON line per {"id","text"} input line
  comfyoom kb lint                                     validate kb/ (file, field and reason per problem)
  comfyoom start                                       interactive terminal mode
  comfyoom --help

Environment:
  COMFYOOM_KB   kb folder to use instead of the bundled kb/
`;

export async function main(argv: string[], out = (s: string) => process.stdout.write(s + '\n')): Promise<number> {
  const kbDir = process.env.COMFYOOM_KB || DEFAULT_KB_DIR;
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case undefined:
      case '--help':
      case '-h':
      case 'help':
        out(HELP);
        return command === undefined ? 2 : 0;
      case 'kb': {
        if (rest[0] !== 'lint') throw new UserError('usage: comfyoom kb lint');
        const kb = loadKb(kbDir);
        out(`kb ok: ${kb.entries.length} entries, ${kb.steps.size} steps, ${kb.signatures.length} signatures, ${kb.flags.size} flags (version ${kb.version})`);
        return 0;
      }
      case 'diagnose': {
        const { values, positionals } = parseArgs({
          args: rest,
          allowPositionals: true,
          options: { json: { type: 'boolean' }, lang: { type: 'string' }, batch: { type: 'string' } },
        });
        if (values.lang !== undefined && values.lang !== 'en' && values.lang !== 'zh') throw new UserError('--lang must be en or zh');
        const kb = loadKb(kbDir);
        const classify = createClassifier(kb);
        if (values.batch !== undefined) {
          const failures = await runBatch(values.batch, classify, out);
          return failures ? 1 : 0;
        }
        const text = readPaste(positionals[0]);
        out(renderOne(text, classify, kb, { json: values.json ?? false, lang: values.lang as 'en' | 'zh' | undefined }));
        return 0;
      }
      case 'start': {
        const { runTerminal } = await import('./terminal.ts');
        return runTerminal(kbDir);
      }
      default:
        throw new UserError(`unknown command "${command}"; see comfyoom --help`);
    }
  } catch (e) {
    if (e instanceof KbError) {
      process.stderr.write(`kb/ has problems:\n${e.message}\n`);
      return 1;
    }
    if (e instanceof UserError || (e as NodeJS.ErrnoException).code === 'ENOENT' || (e as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      process.stderr.write(`comfyoom: ${(e as Error).message}\n`);
      return 2;
    }
    throw e;
  }
}
