// When the bot asks before the first step, and what an answer means: pure functions over facts,
// with the real kb's rules as the judge of whether an answer could change the plan.
import { describe, expect, it } from 'vitest';
import { createJudge } from '../../src/classify/classify.ts';
import { compileStages } from '../../src/classify/facts/stage.ts';
import type { Facts } from '../../src/classify/facts/types.ts';
import { nextQuestion, readTyped, withAnswer } from '../../src/conversation/questions.ts';
import { factsOf, kb } from '../helpers/kb.ts';
import { BARE_OOM, inNode, onNvidia, ZLUDA_BANNER } from './pastes.ts';

const judge = createJudge(kb);
const stages = compileStages(kb.stages);
const facts = (over: Partial<Facts>): Facts => ({ signatures: [], flags: [], evidence: {}, oom: 'cuda', ...over });

describe('when to ask', () => {
  it('asks the vendor first when neither the stage nor the platform shows, then the stage', () => {
    const bare = factsOf(BARE_OOM);
    expect(nextQuestion(bare, [], judge)).toBe('vendor');
    expect(nextQuestion(bare, ['vendor'], judge)).toBe('stage');
    expect(nextQuestion(bare, ['vendor', 'stage'], judge)).toBeUndefined();
  });

  it('asks only the stage when the log names an NVIDIA card', () => {
    expect(nextQuestion(factsOf(onNvidia(BARE_OOM)), [], judge)).toBe('stage');
  });

  it('asks nothing when the log names the node, even with no platform shown (most are NVIDIA)', () => {
    expect(nextQuestion(factsOf(inNode('KSampler')), [], judge)).toBeUndefined();
  });

  it('never asks what the log shows', () => {
    expect(nextQuestion(factsOf(onNvidia(inNode('VAEDecode'))), [], judge)).toBeUndefined();
    // ZLUDA prints CUDA wording, but the banner says AMD: the AMD entry holds whatever the stage.
    expect(nextQuestion(factsOf(`${ZLUDA_BANNER}\n${BARE_OOM}`), [], judge)).toBeUndefined();
    for (const backend of ['rocm', 'zluda', 'directml', 'mps', 'xpu'] as const) {
      expect(nextQuestion(facts({ backend, stage: 'sampling' }), [], judge)).toBeUndefined();
    }
    expect(nextQuestion(facts({ node: 'MyCustomNode', gpuVendor: 'nvidia' }), [], judge)).toBeUndefined();
  });

  it('asks nothing about memory that is not CUDA wording, or about errors that are no OOM', () => {
    expect(nextQuestion(facts({ oom: 'hip' }), [], judge)).toBeUndefined();
    expect(nextQuestion(facts({ oom: 'ram' }), [], judge)).toBeUndefined();
    expect(nextQuestion(factsOf('RuntimeError: mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)'), [], judge)).toBeUndefined();
  });

  it('asks no stage after "AMD": no stage changes the AMD entry', () => {
    const amd = withAnswer(factsOf(BARE_OOM), { question: 'vendor', choice: 'amd' });
    expect(judge(amd).entry.id).toBe('amd-hip-oom');
    expect(nextQuestion(amd, ['vendor'], judge)).toBeUndefined();
  });
});

describe('what an answer means', () => {
  it('sets the answered fact, with evidence that the user said it', () => {
    const bare = factsOf(BARE_OOM);
    const sampling = withAnswer(bare, { question: 'stage', choice: 'sampling' });
    expect(sampling).toMatchObject({ stage: 'sampling', evidence: { stage: { source: 'user answer' } } });
    expect(judge(sampling).entry.id).toBe('gpu-oom-sampling');
    expect(judge(withAnswer(bare, { question: 'stage', choice: 'vae' })).entry.id).toBe('gpu-oom-vae');
    expect(judge(withAnswer(bare, { question: 'stage', choice: 'loader' })).entry.id).toBe('gpu-oom-model-load');
    expect(withAnswer(bare, { question: 'stage', choice: 'other' }).stage).toBe('other');
    expect(withAnswer(bare, { question: 'vendor', choice: 'nvidia' }).gpuVendor).toBe('nvidia');
  });

  it('"I don\'t know" changes nothing, so the generic plan stays', () => {
    const bare = factsOf(BARE_OOM);
    const unknown = withAnswer(bare, { question: 'stage', choice: 'unknown' });
    expect(unknown).toEqual(bare);
    expect(judge(unknown).entry.id).toBe('gpu-oom-other');
  });

  it("reads a typed node's name as its stage, and keeps the name", () => {
    expect(readTyped('stage', 'KSampler', stages)).toEqual({ question: 'stage', choice: 'sampling', typed: true, node: { name: 'KSampler', stage: 'sampling' } });
    expect(readTyped('stage', '  VAEDecode ', stages)).toMatchObject({ choice: 'vae', node: { name: 'VAEDecode', stage: 'vae_decode' } });
    expect(readTyped('stage', 'CheckpointLoaderSimple', stages)).toMatchObject({ choice: 'loader', node: { stage: 'model_load' } });
    const typed = withAnswer(factsOf(BARE_OOM), readTyped('stage', 'KSampler', stages)!);
    expect(typed).toMatchObject({ node: 'KSampler', stage: 'sampling', evidence: { node: { source: 'user answer', text: 'KSampler' } } });
  });

  it('reads typed choices in both languages, and takes chat for nothing', () => {
    expect(readTyped('vendor', 'AMD', stages)).toMatchObject({ choice: 'amd', typed: true });
    expect(readTyped('vendor', 'an rtx 4090', stages)).toMatchObject({ choice: 'nvidia' });
    expect(readTyped('vendor', 'A卡', stages)).toMatchObject({ choice: 'amd' });
    expect(readTyped('stage', "I don't know", stages)).toMatchObject({ choice: 'unknown' });
    expect(readTyped('stage', '不知道', stages)).toMatchObject({ choice: 'unknown' });
    expect(readTyped('vendor', 'thanks, one sec', stages)).toBeUndefined();
    expect(readTyped('stage', 'thanks, one sec', stages)).toBeUndefined();
    // "amd" inside another word is not the vendor.
    expect(readTyped('vendor', 'run the command again', stages)).toBeUndefined();
    expect(readTyped('stage', '', stages)).toBeUndefined();
  });
});
