// Terminal mode: paste a log, get the diagnosis and the plan. (The guided, step-by-step
// conversation with a case store replaces this when the engine lands.)
import { createInterface } from 'node:readline';
import { createClassifier } from '../classify/classify.ts';
import { loadKb } from '../kb/load.ts';
import { renderOne } from './diagnose.ts';

export async function runTerminal(kbDir: string): Promise<number> {
  const kb = loadKb(kbDir);
  const classify = createClassifier(kb);
  const rl = createInterface({ input: process.stdin, terminal: false });
  process.stdout.write('Paste your ComfyUI error or console log, then an empty line (Ctrl+D to quit).\n粘贴 ComfyUI 报错或控制台日志，以空行结束（Ctrl+D 退出）。\n');
  let buffer: string[] = [];
  const flush = () => {
    if (buffer.some((l) => l.trim())) process.stdout.write(`\n${renderOne(buffer.join('\n'), classify, kb, { json: false })}\n\n`);
    buffer = [];
  };
  for await (const line of rl) {
    if (!line.trim() && buffer.length) flush();
    else buffer.push(line);
  }
  flush();
  return 0;
}
