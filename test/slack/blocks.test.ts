// Neutral messages to Block Kit: Slack's limits hold for any message, the important parts survive
// the cuts, code fences stay closed, and pasted text cannot ping anyone.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ACTIONS_BLOCK_ID, LIMITS, answeredBlocks, codeChunks, codeSection, escapeMrkdwn, fitMrkdwn, toBlockKit } from '../../src/adapters/slack/blocks.ts';
import { Engine } from '../../src/conversation/engine.ts';
import type { Block, Message } from '../../src/conversation/render.ts';
import { CaseStore } from '../../src/store/cases.ts';
import { openDb } from '../../src/store/db.ts';
import { sqliteSql } from '../../src/store/sql.ts';
import { sample } from '../helpers/corpus.ts';
import { onNvidia } from '../conversation/pastes.ts';
import { kb } from '../helpers/kb.ts';

type AnyBlock = { type: string; text?: { type: string; text: string }; fields?: { text: string }[]; elements?: any[]; block_id?: string };

const kit = (m: Message) => toBlockKit(m).blocks as AnyBlock[];
const mrkdwnTexts = (blocks: AnyBlock[]) =>
  blocks.flatMap((b) => [
    ...(b.text?.type === 'mrkdwn' ? [b.text.text] : []),
    ...(b.fields ?? []).map((f) => f.text),
    ...(b.type === 'context' ? (b.elements ?? []).map((e) => e.text as string) : []),
  ]);
const fences = (s: string) => s.match(/```/g)?.length ?? 0;

describe('toBlockKit', () => {
  it('translates a real diagnosis and step: header, sections, fields, code and buttons', async () => {
    const engine = new Engine({ kb, store: new CaseStore(sqliteSql(openDb(':memory:'))) });
    const [diagnosis, step] = await engine.open({ platform: 'slack', user: 'U1', channel: 'C1' }, onNvidia(sample('cf-0214').text));
    const d = kit(diagnosis!);
    // No context line: the category and confidence are for moderators, not shown to users.
    expect(d.map((b) => b.type)).toEqual(['header', 'section', 'section', 'section', 'actions']);
    expect(d[0]!.text).toMatchObject({ type: 'plain_text', text: expect.stringMatching(/sampling/i) });
    expect(d[2]!.fields!.length).toBeGreaterThan(3);
    expect(d[2]!.fields![0]!.text).toMatch(/^\*Memory that ran out\*\n/);
    expect(d[3]!.text!.text).toMatch(/^```\n[\s\S]*\n```$/);

    const s = kit(step!);
    const actions = s.at(-1)!;
    expect(actions).toMatchObject({ type: 'actions', block_id: ACTIONS_BLOCK_ID });
    const buttons = actions.elements!;
    expect(buttons.map((b) => b.text.text)).toEqual(['Worked', 'Still failing', 'Skip', 'Paste a new log', 'Stop', 'Show current step']);
    for (const [i, b] of buttons.entries()) {
      expect(b.action_id).toBe(step!.buttons![i]!.id);
      expect(b.value).toBe(step!.buttons![i]!.id);
    }
    expect(buttons.map((b) => b.style)).toEqual(['primary', 'danger', undefined, undefined, undefined, undefined]);
    expect(toBlockKit(step!).text).toMatch(/^Step 1 of/);
  });

  it('escapes &, < and > everywhere, so <!channel>, <!here> and <@U…> from a paste stay text', () => {
    const evil = 'x <!channel> <!here> <!everyone> <@U123> <#C1> & <https://evil|click>';
    const out = toBlockKit({
      blocks: [
        { kind: 'title', text: evil },
        { kind: 'text', text: evil },
        { kind: 'code', text: evil },
        { kind: 'fields', text: evil, fields: [[evil, evil]] },
        { kind: 'note', text: evil },
      ],
    });
    // The header is plain_text, which Slack never parses for mentions; everything mrkdwn is escaped.
    const all = JSON.stringify({ ...out, blocks: out.blocks.slice(1) });
    expect(out.blocks[0]!.type).toBe('header');
    for (const ping of ['<!channel>', '<!here>', '<!everyone>', '<@U123>', '<#C1>', '<https://evil']) expect(all).not.toContain(ping);
    for (const t of [...mrkdwnTexts(out.blocks as AnyBlock[]), out.text]) expect(t).toContain('&lt;!channel&gt;');
    expect(escapeMrkdwn('a & b')).toBe('a &amp; b');
  });

  it('cuts a long code block inside its fence and keeps the fence closed, even with backticks in the paste', () => {
    const code = Array.from({ length: 400 }, (_, i) => `line ${i} \`\`\` <tag> & more text here`).join('\n');
    const [section] = kit({ blocks: [{ kind: 'code', text: code }] });
    const text = section!.text!.text;
    expect(text.length).toBeLessThanOrEqual(LIMITS.section);
    expect(text.startsWith('```\n')).toBe(true);
    expect(text.endsWith('\n```')).toBe(true);
    expect(fences(text)).toBe(2);
    expect(text).toContain('…');
  });

  it('cuts long text at a line end when it can, and never inside an entity', () => {
    const text = Array.from({ length: 100 }, (_, i) => `paragraph ${i} ${'word '.repeat(10)}`).join('\n');
    const cut = fitMrkdwn(text, 3000);
    expect(cut.length).toBeLessThanOrEqual(3000);
    expect(cut.endsWith('\n…')).toBe(true);
    expect(cut.split('\n').at(-2)).toMatch(/word $/);

    const amp = fitMrkdwn(`${'a'.repeat(2995)}&&&&&&`, 3000);
    expect(amp.length).toBeLessThanOrEqual(3000);
    expect(amp).not.toMatch(/&(?!amp;)/);
  });

  it('keeps the header to 150 characters and button labels to 75', () => {
    const [header, actions] = kit({ blocks: [{ kind: 'title', text: 'T'.repeat(400) }], buttons: [{ id: 'coom:a:1:w', label: 'L'.repeat(200), style: 'success' }] });
    expect(header!.text!.text.length).toBeLessThanOrEqual(LIMITS.header);
    expect(actions!.elements![0].text.text.length).toBeLessThanOrEqual(LIMITS.buttonLabel);
  });

  it('splits more than ten fields over sections and cuts long values to 2000 characters', () => {
    const fields = Array.from({ length: 23 }, (_, i): [string, string] => [`k${i}`, 'v'.repeat(i === 0 ? 5000 : 3)]);
    const sections = kit({ blocks: [{ kind: 'fields', text: 'Facts', fields }] });
    expect(sections.map((s) => s.fields!.length)).toEqual([10, 10, 3]);
    expect(sections[0]!.text!.text).toBe('*Facts*');
    expect(sections[1]!.text).toBeUndefined();
    expect(sections[0]!.fields![0]!.text.length).toBeLessThanOrEqual(LIMITS.field);
  });

  it('keeps to 50 blocks by dropping notes first, then facts; title, text, commands and buttons stay', () => {
    const blocks: Block[] = [
      { kind: 'title', text: 'Title' },
      { kind: 'text', text: 'What happened' },
      ...Array.from({ length: 30 }, (_, i): Block => ({ kind: 'note', text: `note ${i}` })),
      ...Array.from({ length: 50 }, (_, i): Block => ({ kind: 'fields', text: `facts ${i}`, fields: [['k', 'v']] })),
      { kind: 'code', text: 'python main.py --lowvram' },
    ];
    const out = kit({ blocks, buttons: [{ id: 'coom:a:1:w', label: 'Worked', style: 'success' }] });
    expect(out.length).toBe(LIMITS.blocks);
    expect(out[0]!.type).toBe('header');
    expect(out[1]!.text!.text).toBe('What happened');
    expect(out.some((b) => b.text?.text.includes('--lowvram'))).toBe(true);
    expect(out.at(-1)!.type).toBe('actions');
    expect(out.filter((b) => b.type === 'context')).toHaveLength(0);
    expect(out.filter((b) => b.fields)).toHaveLength(46);
  });

  it('skips empty blocks, which Slack would reject with the whole message', () => {
    expect(kit({ blocks: [{ kind: 'text', text: '  ' }, { kind: 'note', text: '' }, { kind: 'title', text: 'ok' }] }).map((b) => b.type)).toEqual(['header']);
  });

  it('holds every Slack limit for any message', () => {
    const text = fc.string({ unit: fc.constantFrom('a', ' ', '\n', '<', '>', '&', '`', '中', '😀', '!', '@'), maxLength: 4000 });
    const block = fc.record({
      kind: fc.constantFrom('title', 'text', 'code', 'fields', 'note'),
      text,
      fields: fc.array(fc.tuple(text, text), { maxLength: 12 }),
    }) as fc.Arbitrary<Block>;
    const button = fc.record({ id: fc.string({ minLength: 1, maxLength: 100 }), label: fc.string({ minLength: 1, maxLength: 100 }), style: fc.constantFrom('primary', 'secondary', 'success', 'danger') }) as fc.Arbitrary<NonNullable<Message['buttons']>[number]>;
    fc.assert(
      fc.property(fc.array(block, { maxLength: 60 }), fc.array(button, { maxLength: 6 }), (blocks, buttons) => {
        const out = toBlockKit({ blocks, buttons });
        const bs = out.blocks as AnyBlock[];
        expect(bs.length).toBeLessThanOrEqual(LIMITS.blocks);
        for (const b of bs) {
          if (b.type === 'header') expect(b.text!.text.length).toBeLessThanOrEqual(LIMITS.header);
          if (b.type === 'section') {
            if (b.text) expect(b.text.text.length).toBeLessThanOrEqual(LIMITS.section);
            expect((b.fields ?? []).length).toBeLessThanOrEqual(LIMITS.fieldsPerSection);
            for (const f of b.fields ?? []) expect(f.text.length).toBeLessThanOrEqual(LIMITS.field);
          }
        }
        // Fences only ever wrap a whole code block, so none is left open by a cut.
        for (const t of mrkdwnTexts(bs)) expect(fences(t)).toBe(/^```\n[\s\S]*\n```$/.test(t) ? 2 : 0);
        for (const t of [...mrkdwnTexts(bs), out.text]) expect(t).not.toMatch(/[<>]/);
        expect(out.text.length).toBeLessThanOrEqual(LIMITS.fallback);
        if (buttons.length) expect(bs.at(-1)!.type).toBe('actions');
      }),
      { numRuns: 300, seed: 20240601 },
    );
  });
});

describe('answeredBlocks', () => {
  it('takes the buttons off and shows the chosen answer', () => {
    const posted = toBlockKit({ blocks: [{ kind: 'title', text: 'Step 1 of 3' }], buttons: [{ id: 'coom:a:1:w', label: 'Worked', style: 'success' }] }).blocks;
    const after = answeredBlocks(posted, 'Still <failing>') as AnyBlock[];
    expect(after.map((b) => b.type)).toEqual(['header', 'context']);
    expect(after[1]!.elements![0].text).toBe('➜ *Still &lt;failing&gt;*');
  });
});

describe('codeChunks and codeSection', () => {
  it('splits a long report into whole lines that each fit a section', () => {
    const report = Array.from({ length: 500 }, (_, i) => `  ${i}  some-step-name  3 / 2 / 1 / 0 / 0`).join('\n');
    const chunks = codeChunks(report);
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.join('\n')).toBe(report);
    for (const c of chunks) expect(codeSection(c).length).toBeLessThanOrEqual(LIMITS.section);
  });
});
