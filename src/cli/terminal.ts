// Terminal mode: the same engine as the chat adapters, answered by keys or words. On a terminal it
// prompts; piped, it reads one answer per line (y/worked, n, skip, stop, a choice's number or
// label, a node's name, or a pasted log), so a whole conversation can be scripted. Every answer is
// stored before the next prompt.
import { createInterface } from 'node:readline';
import { Transform } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { userInfo } from 'node:os';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Engine, Origin } from '../conversation/engine.ts';
import { isStanding, type Message } from '../conversation/render.ts';
import type { CaseState, Reason } from '../conversation/machine.ts';
import { isSentence } from '../conversation/replies.ts';
import { INGEST_LIMITS } from '../ingest/limits.ts';
import { LIMITS } from '../classify/normalize.ts';

type Out = (s: string) => void;

export function formatMessage(m: Message): string {
  const out: string[] = [];
  for (const b of m.blocks) {
    if (b.kind === 'title') out.push(`\n== ${b.text}`);
    else if (b.kind === 'code') out.push(b.text.split('\n').map((l) => `    ${l}`).join('\n'));
    else if (b.kind === 'fields') out.push(`${b.text}:\n${b.fields!.map(([k, v]) => `  ${k}: ${v}`).join('\n')}`);
    else if (b.kind === 'note') out.push(`  (${b.text})`);
    else out.push(b.text);
  }
  // A diagnosis's own buttons stand beside the step's numbers, so they are typed, not numbered.
  if (m.buttons?.length && m.buttons.every((b) => isStanding(b.id))) out.push(`(${m.buttons.map((b) => `“${b.label}”`).join(' · ')})`);
  else if (m.buttons?.length) out.push(m.buttons.map((b, i) => `[${i + 1}] ${b.label}`).join('  '));
  return out.join('\n');
}

/** Short words for an answer's choices (by place), besides their numbers and labels. */
const ANSWERS: Record<string, number> = {
  y: 0, yes: 0, worked: 0, ok: 0,
  n: 1, no: 1, failed: 1, fail: 1,
  s: 2, skip: 2,
  l: 3, log: 3, new: 3, newlog: 3,
  stop: 4,
};
const LEAVE = new Set(['quit', 'exit', 'q', '退出']);
const REASONS: Record<string, Reason> = { same: 'same', different: 'different', apply: 'could_not_apply', "couldn't": 'could_not_apply', could: 'could_not_apply' };

/**
 * How long a terminal may stay silent after an empty line for it to end a paste: the lines of one
 * paste come within milliseconds of each other, a person's next keystroke much later.
 */
const PASTE_QUIET_MS = 300;
const QUIET = Symbol('quiet');

/**
 * A paste is held to the size of a file sent in chat (counted in characters, which in a log are its
 * bytes): piped input may never bring the empty line that ends it (`yes | comfyoom chat`).
 */
const PASTE_MAX = INGEST_LIMITS.maxFileBytes;
/**
 * Past PASTE_MAX, a paste keeps its head and its tail, shared as the classifier shares a long
 * paste: the startup banner (GPU, VRAM, versions) comes first, the error at the end, and what
 * lies between is the run before the error. Ending the paste at the cap instead would keep the
 * banner and lose the error, and leave the rest of the log to be read as answers.
 */
const HEAD_MAX = Math.floor(PASTE_MAX * LIMITS.headShare);
const GAP = '...';
const TAIL_MAX = PASTE_MAX - HEAD_MAX - GAP.length - 1;
const MB = (n: number) => Math.round(n / (1024 * 1024));
const CAPPED = `Your paste is longer than ${MB(PASTE_MAX)} MB: I read its first ${MB(HEAD_MAX)} MB and its last ${MB(TAIL_MAX)} MB. / 粘贴的内容超过 ${MB(PASTE_MAX)} MB：只读取开头 ${MB(HEAD_MAX)} MB 和最后 ${MB(TAIL_MAX)} MB。`;
/**
 * Readline holds a line whole until its end, and queues up to 1024 lines while the engine works:
 * longer lines are broken (no character is lost), so input holds at most 1024 times this. The
 * classifier reads only the first 1000 characters of a line anyway.
 */
const LINE_MAX = 64 * 1024;

/** The input with a line break after every LINE_MAX characters of one line. */
function breakLongLines(): Transform {
  const decoder = new StringDecoder('utf8');
  const lineBreak = /[\r\n]/g;
  /** Characters of the current line passed on already. */
  let run = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      const text = decoder.write(chunk);
      const parts: string[] = [];
      let from = 0;
      for (let at = 0; at <= text.length; ) {
        lineBreak.lastIndex = at;
        const end = lineBreak.exec(text)?.index ?? text.length;
        while (run + end - at > LINE_MAX) {
          at += LINE_MAX - run;
          parts.push(text.slice(from, at), '\n');
          from = at;
          run = 0;
        }
        run = end < text.length ? 0 : run + end - at;
        at = end + 1;
      }
      parts.push(text.slice(from));
      done(null, parts.join(''));
    },
    flush(done) {
      done(null, decoder.end());
    },
  });
}

/**
 * The lines of a paste as collected: at most PASTE_MAX characters of them are passed on (see
 * HEAD_MAX), and at most twice as many held.
 */
class Paste {
  private head: string[] = [];
  private headSize = 0;
  /** The last lines, once the paste passed PASTE_MAX. */
  private tail: string[] | undefined;
  private tailSize = 0;

  get collecting(): boolean {
    return this.head.length > 0;
  }

  /** True when this line takes the paste past PASTE_MAX. */
  add(line: string): boolean {
    if (this.tail) {
      this.tail.push(line);
      this.tailSize += line.length + 1;
      // Trimmed in bulk, at twice its share: dropping one line at a time from the front of an array
      // copies the array each time (a 20 MB paste took 13 s).
      if (this.tailSize > 2 * TAIL_MAX) this.trimTail();
      return false;
    }
    this.head.push(line);
    this.headSize += line.length + 1;
    if (this.headSize <= PASTE_MAX) return false;
    // The head keeps its first HEAD_MAX characters; the rest starts the tail.
    let kept = 0;
    let i = 0;
    while (kept + this.head[i]!.length + 1 <= HEAD_MAX) kept += this.head[i++]!.length + 1;
    const cut = this.head[i]!;
    this.tail = [cut.slice(HEAD_MAX - kept), ...this.head.slice(i + 1)];
    this.tailSize = this.headSize - HEAD_MAX;
    this.head = [...this.head.slice(0, i), cut.slice(0, HEAD_MAX - kept)];
    this.trimTail();
    return true;
  }

  private trimTail() {
    const tail = this.tail!;
    let drop = 0;
    while (this.tailSize - tail[drop]!.length - 1 >= TAIL_MAX) this.tailSize -= tail[drop++]!.length + 1;
    tail.splice(0, drop);
    const over = this.tailSize - TAIL_MAX;
    if (over > 0) {
      tail[0] = tail[0]!.slice(over);
      this.tailSize = TAIL_MAX;
    }
  }

  /** The paste as one text, and a new one begun. */
  take(): string {
    if (this.tail) this.trimTail();
    const text = [...this.head, ...(this.tail ? [GAP, ...this.tail] : [])].join('\n');
    this.head = [];
    this.headSize = 0;
    this.tail = undefined;
    this.tailSize = 0;
    return text;
  }
}

export interface TerminalOptions {
  engine: Engine;
  input: NodeJS.ReadableStream;
  out: Out;
  interactive: boolean;
  /** Text to open the first case with (comfyoom chat FILE). */
  initialPaste?: string;
  resume?: boolean;
  user?: string;
  /** Where what went wrong is said for whoever runs the chat (default: out). */
  err?: Out;
  /** Where files a message carries are written (default: the working folder). */
  saveDir?: string;
}

export async function runTerminal(o: TerminalOptions): Promise<number> {
  const origin: Origin = { platform: 'terminal', user: o.user ?? `local:${userInfo().username}`, channel: 'terminal' };
  const { engine, out } = o;
  for (const { messages } of await engine.sweep(['terminal'])) messages.forEach((m) => out(formatMessage(m)));

  let caseId: string | undefined;
  /** The case as the last answer left it: only this terminal's user moves it on. */
  let state: CaseState | undefined;
  /** The choices last shown, numbered from 1 as printed. */
  let buttons: { id: string; label: string }[] = [];
  /** Buttons that stand whatever the step ("That's not my problem"), by their label: typed, not numbered. */
  const standing = new Map<string, string>();
  const show = async (messages: Message[]) => {
    for (const m of messages) {
      out(formatMessage(m));
      // A file a chat platform would attach (the hand-over summary) is written where the terminal runs.
      for (const f of m.files ?? []) {
        const path = resolve(o.saveDir ?? '.', f.name);
        writeFileSync(path, f.content);
        out(`Saved as ${path} / 已保存为 ${path}`);
      }
      if (m.buttons?.some((b) => !isStanding(b.id))) buttons = m.buttons.map((b) => ({ id: b.id, label: b.label.toLowerCase() }));
      for (const b of m.buttons?.filter((x) => isStanding(x.id)) ?? []) standing.set(b.label.toLowerCase(), b.id);
      if (m.caseId) caseId = m.caseId;
    }
    state = caseId ? await engine.state(caseId) : undefined;
    if (!state || state.status !== 'open') {
      caseId = undefined;
      state = undefined;
      buttons = [];
    }
    prompt();
  };
  const mode = () => (!state ? 'paste' : state.awaiting === 'log' ? 'log' : state.awaiting);
  const prompt = () => {
    if (!o.interactive) return;
    const m = mode();
    out(m === 'paste' ? '\nPaste a ComfyUI error or log, then an empty line (quit or Ctrl+D to leave) / 粘贴报错或日志，以空行结束（输入 退出 离开）：' : m === 'log' ? 'Paste the new log, then an empty line / 粘贴新日志，以空行结束：' : m === 'question' ? `1-${buttons.length} > ` : '> ');
  };

  if (o.resume) {
    caseId = await engine.lastOpenCase(origin);
    const about = caseId && (await engine.about(caseId));
    if (!caseId) out('No open case to resume. / 没有可以继续的问题。');
    else {
      if (about) {
        const when = new Date(about.openedAt).toLocaleString('sv-SE', { dateStyle: 'short', timeStyle: 'short' });
        out(`Resuming your case of ${when}: ${about.title.en} / 继续 ${when} 的问题：${about.title.zh}`);
      }
      await show(await engine.current(caseId));
    }
  } else if (o.initialPaste !== undefined) await show(await engine.open(origin, o.initialPaste));
  else {
    out('ComfyOOM — ComfyUI out-of-memory troubleshooter / ComfyUI 显存不足排障助手');
    prompt();
  }

  /** The store's problem last said, while it lasts: said once, however many lines it refuses. */
  let unsaved: string | undefined;
  let lostAny = false;
  /**
   * What the engine answers, shown. When the store failed (a server restarting, a disk full),
   * nothing of that line was saved: that is said in one sentence, and the chat goes on, so the
   * line can be typed again once the store is back.
   */
  const act = async (engineCall: () => Promise<Message[]>) => {
    let messages: Message[];
    try {
      messages = await engineCall();
    } catch (e) {
      const [en, zh] = (['en', 'zh'] as const).map((lang) => engine.storeFailure(e, lang));
      if (!en || !zh) throw e;
      if (unsaved !== en.problem.message) (o.err ?? out)(`comfyoom: ${en.problem.message}`);
      unsaved = en.problem.message;
      lostAny = true;
      out(`${formatMessage(en.message)} / ${formatMessage(zh.message)}`);
      return prompt();
    }
    unsaved = undefined;
    await show(messages);
  };

  const paste = new Paste();
  const collect = (line: string) => paste.add(line) && out(CAPPED);
  const flushPaste = async () => {
    const text = paste.take();
    if (!text.trim()) return;
    const into = caseId;
    await act(() => (into ? engine.paste(into, text, origin) : engine.open(origin, text)));
  };

  const input = o.input.pipe(breakLongLines());
  const rl = createInterface({ input, terminal: false });
  const lines = rl[Symbol.asyncIterator]();
  /** A line asked for and not yet come: kept for the next ask, so a quiet window loses no line. */
  let coming: Promise<IteratorResult<string>> | undefined;
  /** The next line, or undefined at the end of the input. */
  const nextLine = async (): Promise<string | undefined> => {
    const got = await (coming ??= lines.next());
    coming = undefined;
    return got.done ? undefined : got.value;
  };
  /** The next line if one comes within `ms`, else QUIET. */
  const lineWithin = async (ms: number): Promise<string | undefined | typeof QUIET> => {
    let timer: NodeJS.Timeout | undefined;
    const quiet = new Promise<typeof QUIET>((resolve) => (timer = setTimeout(resolve, ms, QUIET)));
    const got = await Promise.race([(coming ??= lines.next()), quiet]);
    clearTimeout(timer);
    return got === QUIET ? QUIET : nextLine();
  };

  const chosenBy = (word: string) => {
    if (/^\d{1,2}$/.test(word)) return buttons[Number(word) - 1];
    const id = standing.get(word);
    return id ? { id, label: word } : buttons.find((b) => b.label === word);
  };

  let carried: string | undefined;
  for (;;) {
    const raw = carried ?? (await nextLine());
    carried = undefined;
    if (raw === undefined) break;
    const line = raw.trimEnd();
    const m = mode();
    // The words for leaving leave at any prompt, as Ctrl+D does (a log never is one of them); an open
    // case stays open for --resume.
    if (!paste.collecting && LEAVE.has(line.trim().toLowerCase())) {
      if (caseId) out('Your case stays open: comfyoom chat --resume picks it up. / 问题仍然保留：用 comfyoom chat --resume 继续。');
      break;
    }
    // Waiting for a log, a line that is just a choice shown with the request (its number or "stop") is that choice.
    const shown = m === 'log' && !paste.collecting ? chosenBy(line.trim().toLowerCase()) : undefined;
    if (shown) {
      await act(() => engine.press(shown.id, origin));
      continue;
    }
    if (paste.collecting || m === 'paste' || m === 'log') {
      // Collecting a paste: it ends at an empty line. A log may hold empty lines of its own (an
      // error report's stack trace has one between frames): on a terminal they come with the
      // rest of the paste, where the user's own empty line is followed by quiet. Piped input has
      // no such pause, so there the first empty line ends the paste, as scripts write them.
      if (line.trim()) collect(line);
      else if (paste.collecting) {
        const after = o.interactive ? await lineWithin(PASTE_QUIET_MS) : QUIET;
        if (typeof after === 'string') {
          collect('');
          carried = after;
        } else {
          await flushPaste();
          if (after === undefined) break;
        }
      }
      continue;
    }
    const word = line.trim().toLowerCase();
    if (!word) continue;
    // A choice by its number, or by its label as printed, in the language it was printed in
    // ("skip", "跳过", "same error", "同样的错误").
    const chosen = chosenBy(word);
    if (chosen) {
      await act(() => engine.press(chosen.id, origin));
      continue;
    }
    if (m === 'reason') {
      const reason = REASONS[word] ?? REASONS[word.split(/\s/)[0]!];
      const id = reason && buttons[['same', 'different', 'could_not_apply'].indexOf(reason)]?.id;
      if (id) {
        await act(() => engine.press(id, origin));
        continue;
      }
    }
    const choice = m === 'answer' ? ANSWERS[word] : undefined;
    if (choice !== undefined && buttons[choice]) {
      await act(() => engine.press(buttons[choice]!.id, origin));
      continue;
    }
    // Words are an answer for the engine to read ("still OOM", a node's name); console output
    // starts a pasted log.
    if (isSentence(line)) await act(() => engine.paste(caseId!, line, origin));
    else collect(line);
  }
  if (paste.collecting) await flushPaste();
  // Leaving by a word must not wait for the end of input: a terminal's stdin never ends by itself.
  rl.close();
  o.input.unpipe(input);
  o.input.pause();
  // A chat with a line the store could not keep did not do all it was asked: a script must know.
  return lostAny ? 1 : 0;
}
