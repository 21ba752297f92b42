// Neutral messages to Discord payloads: embeds or content, buttons, files, and the cutting that
// keeps every message within Discord's limits without losing its head or breaking a code fence.
import { ButtonStyle } from 'discord.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { answeredRows, buttonRows, codePayload, cutText, embedLength, fit, LIMITS, threadName, toPayload, type Payload } from '../../src/adapters/discord/payload.ts';
import { Engine } from '../../src/conversation/engine.ts';
import type { Block, Message } from '../../src/conversation/render.ts';
import { CaseStore } from '../../src/store/cases.ts';
import { openDb } from '../../src/store/db.ts';
import { sqliteSql } from '../../src/store/sql.ts';
import { corpus } from '../helpers/corpus.ts';
import { kb } from '../helpers/kb.ts';

const fences = (s: string) => (s.match(/```/g) ?? []).length;

function expectWithinLimits(p: Payload) {
  expect(p.content.length).toBeLessThanOrEqual(LIMITS.content);
  expect(fences(p.content) % 2).toBe(0);
  for (const e of p.embeds) {
    expect(e.title!.length).toBeLessThanOrEqual(LIMITS.title);
    expect((e.description ?? '').length).toBeLessThanOrEqual(LIMITS.description);
    expect(fences(e.description ?? '') % 2).toBe(0);
    expect(embedLength(e)).toBeLessThanOrEqual(LIMITS.embedTotal);
  }
  expect(p.components.length).toBeLessThanOrEqual(LIMITS.rows);
  for (const r of p.components) {
    expect(r.components.length).toBeLessThanOrEqual(LIMITS.buttonsPerRow);
    for (const b of r.components) {
      expect(b.custom_id.length).toBeLessThanOrEqual(LIMITS.customId);
      expect(b.label!.length).toBeLessThanOrEqual(LIMITS.buttonLabel);
    }
  }
  expect(p.allowedMentions).toEqual({ parse: [], repliedUser: false });
}

describe('toPayload', () => {
  it('turns a titled message into one embed and keeps the block order', () => {
    const p = toPayload({
      caseId: 'c1',
      blocks: [
        { kind: 'title', text: 'Out of GPU memory while sampling' },
        { kind: 'text', text: 'The GPU ran out.' },
        { kind: 'fields', text: 'What your log shows', fields: [['Failing node', 'KSampler__custom_*x*']] },
        { kind: 'code', text: 'torch.OutOfMemoryError: CUDA out of memory' },
        { kind: 'note', text: 'oom_gpu_sampling · confidence 100%' },
        { kind: 'note', text: 'second note' },
      ],
    });
    expect(p.content).toBe('');
    expect(p.embeds).toHaveLength(1);
    expect(p.embeds[0]!.title).toBe('Out of GPU memory while sampling');
    expect(p.embeds[0]!.description).toBe(
      [
        'The GPU ran out.',
        '',
        '**What your log shows**',
        'Failing node: **KSampler\\_\\_custom\\_\\*x\\***',
        '',
        '```\ntorch.OutOfMemoryError: CUDA out of memory\n```',
        '',
        '-# oom_gpu_sampling · confidence 100%',
        '-# second note',
      ].join('\n'),
    );
    expectWithinLimits(p);
  });

  it('sends an untitled message as plain content, with its files attached', () => {
    const p = toPayload({ blocks: [{ kind: 'text', text: 'I have no more steps.' }], files: [{ name: 'comfyoom-c1.md', content: '# ComfyOOM case c1\n' }] });
    expect(p).toMatchObject({ content: 'I have no more steps.', embeds: [], components: [] });
    expect(p.files).toEqual([{ name: 'comfyoom-c1.md', attachment: Buffer.from('# ComfyOOM case c1\n') }]);
  });

  it('keeps the title and the first blocks of an oversized message and drops the tail', () => {
    const p = toPayload({
      blocks: [
        { kind: 'title', text: 'Step 1 of 3: Shrink the job' },
        { kind: 'text', text: 'Halve width and height.' },
        { kind: 'code', text: 'x'.repeat(2000) },
        { kind: 'text', text: 'y '.repeat(3000) },
        { kind: 'note', text: 'never reached' },
      ],
    });
    const d = p.embeds[0]!.description!;
    expect(p.embeds[0]!.title).toBe('Step 1 of 3: Shrink the job');
    expect(d.startsWith('Halve width and height.\n\n```\n' + 'x'.repeat(2000) + '\n```')).toBe(true);
    expect(d.length).toBeLessThanOrEqual(4000);
    expect(d.endsWith('…')).toBe(true);
    expect(d).not.toContain('never reached');
    expectWithinLimits(p);
  });

  it('closes a code fence it had to cut into', () => {
    const p = toPayload({ blocks: [{ kind: 'text', text: 'Evidence:' }, { kind: 'code', text: Array.from({ length: 400 }, (_, i) => `line ${i} of the log`).join('\n') }] });
    expect(p.content.length).toBeLessThanOrEqual(2000);
    expect(p.content.startsWith('Evidence:\n\n```\nline 0 of the log')).toBe(true);
    expect(p.content.endsWith('…\n```')).toBe(true);
    expect(fences(p.content)).toBe(2);
  });

  it('does not let pasted text close the fence around it', () => {
    const p = toPayload({ blocks: [{ kind: 'code', text: 'before\n```\n@everyone **bold**\n```\nafter' }] });
    expect(fences(p.content)).toBe(2);
    expect(p.content).toContain('@everyone');
    expect(p.allowedMentions).toEqual({ parse: [], repliedUser: false });
  });

  it('cuts a very long title and never splits a surrogate pair', () => {
    expect(toPayload({ blocks: [{ kind: 'title', text: 'T'.repeat(300) }] }).embeds[0]!.title!.length).toBe(256);
    const emoji = '😀'.repeat(50);
    const cut = cutText(emoji, 31);
    expect(cut.length).toBeLessThanOrEqual(31);
    expect(cut).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
  });

  it('prefers a word break, and drops a piece when too little room is left for it', () => {
    expect(cutText('alpha beta gamma delta epsilon zeta', 30)).toBe('alpha beta gamma delta…');
    expect(fit(['a'.repeat(1990), '\n\nsome more text that will not fit'], 2000)).toBe(`${'a'.repeat(1990)}\n…`);
  });

  it('renders the stats as one monospaced block within the limit', () => {
    const p = codePayload(Array.from({ length: 300 }, (_, i) => `  ${i}  oom_gpu_sampling  1 / 0 / 0 / 0`).join('\n'));
    expect(p.content.length).toBeLessThanOrEqual(2000);
    expect(p.content.startsWith('```\n  0  oom_gpu_sampling')).toBe(true);
    expect(fences(p.content)).toBe(2);
  });
});

describe('buttons', () => {
  const b = (id: string, style: 'primary' | 'secondary' | 'success' | 'danger' = 'secondary', label = id) => ({ id, label, style });

  it('puts five buttons per row, maps styles, cuts labels and skips ids over 100 characters', () => {
    const rows = buttonRows([b('a', 'success'), b('b', 'danger'), b('c', 'primary'), b('d'), b('e'), b('f', 'secondary', 'L'.repeat(120)), b('x'.repeat(101))]);
    expect(rows.map((r) => r.components.map((c) => c.custom_id))).toEqual([['a', 'b', 'c', 'd', 'e'], ['f']]);
    expect(rows[0]!.components.map((c) => c.style)).toEqual([ButtonStyle.Success, ButtonStyle.Danger, ButtonStyle.Primary, ButtonStyle.Secondary, ButtonStyle.Secondary]);
    expect(rows[1]!.components[0]!.label!.length).toBe(80);
  });

  it('greys out an answered step, keeping the chosen button coloured', () => {
    const rows = answeredRows(buttonRows([b('w', 'success'), b('f', 'danger'), b('s')]), 's');
    expect(rows[0]!.components.map((c) => [c.custom_id, c.disabled, c.style])).toEqual([
      ['w', true, ButtonStyle.Secondary],
      ['f', true, ButtonStyle.Secondary],
      ['s', true, ButtonStyle.Primary],
    ]);
    expect(answeredRows(buttonRows([b('w', 'success')]), 'w')[0]!.components[0]!.style).toBe(ButtonStyle.Success);
  });
});

describe('limits hold', () => {
  const block: fc.Arbitrary<Block> = fc.record({
    kind: fc.constantFrom('title', 'text', 'code', 'note', 'fields') as fc.Arbitrary<Block['kind']>,
    text: fc.oneof(fc.string({ maxLength: 50 }), fc.string({ unit: 'grapheme', maxLength: 3000 }), fc.constantFrom('```', '```\ncode', '@everyone', '😀'.repeat(1500))),
    fields: fc.array(fc.tuple(fc.string({ maxLength: 40 }), fc.string({ maxLength: 400 })), { maxLength: 20 }),
  });
  const message: fc.Arbitrary<Message> = fc.record({
    blocks: fc.array(block, { maxLength: 12 }),
    buttons: fc.array(fc.record({ id: fc.string({ minLength: 1, maxLength: 120 }), label: fc.string({ maxLength: 120 }), style: fc.constantFrom('primary', 'secondary', 'success', 'danger') as fc.Arbitrary<'primary'> }), { maxLength: 30 }),
  });

  it('for any message', () => {
    fc.assert(fc.property(message, (m) => expectWithinLimits(toPayload(m))), { numRuns: 300 });
  });

  it('for what the engine says about every corpus sample, in both languages', async () => {
    const store = new CaseStore(sqliteSql(openDb(':memory:')));
    const engine = new Engine({ kb, store, ratePerMinute: 10_000 });
    for (const s of corpus.slice(0, 60)) {
      for (const locale of ['en-US', 'zh-CN']) {
        const out = await engine.open({ platform: 'discord', user: 'u', locale }, s.text);
        for (const m of out) expectWithinLimits(toPayload(m));
        expect(threadName(out[0]!, 'x').length).toBeLessThanOrEqual(LIMITS.threadName);
      }
    }
  });
});
