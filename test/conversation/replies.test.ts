// Typed replies at a step are answers, read for what they say (kb/replies.yaml); only console
// output is a new log.
import { describe, expect, it } from 'vitest';
import { isSentence, pressesFor, replyReader } from '../../src/conversation/replies.ts';
import { kb } from '../helpers/kb.ts';

const read = replyReader(kb.replies);

describe('reading a typed reply', () => {
  it.each([
    ['still OOM', 'failing'],
    ['OOM again :(', 'failing'],
    ["that didn't work, still out of memory", 'failing'],
    ['no luck', 'failing'],
    ['nope', 'failing'],
    ['还是显存不足', 'failing'],
    ['没用，一样的错', 'failing'],
    ['does --lowvram help with OOM?', 'question'],
    ['where is the VAE Decode (Tiled) node?', 'question'],
    ['怎么设置页面文件？', 'question'],
    ['it worked!', 'worked'],
    ['thanks, that fixed it', 'worked'],
    ['works now', 'worked'],
    ['解决了', 'worked'],
    ['可以了，谢谢', 'worked'],
    ['it got past the sampler but now I get a different error', 'different'],
    ['now it crashes in VAE Decode', 'different'],
    ['换了个错误', 'different'],
    ["I can't find that setting", 'could_not_apply'],
    ["I don't have that file", 'could_not_apply'],
    ['找不到这个选项', 'could_not_apply'],
    ['没法照做', 'could_not_apply'],
    ['skip', 'skip'],
    ['try something else', 'skip'],
    ['跳过', 'skip'],
    ['stop', 'stop'],
    ['退出', 'stop'],
    ['thanks, trying that now!', 'trying'],
    ['我试试', 'trying'],
    ['thanks!', 'thanks'],
    ['谢谢', 'thanks'],
  ])('"%s" is %s', (said, intent) => {
    expect(read(said)).toBe(intent);
  });

  it('leaves words that do not say unread, so the bot asks', () => {
    expect(read('ok let me look into it tomorrow morning')).toBeUndefined();
    expect(read('')).toBeUndefined();
  });
});

describe('a sentence or a log', () => {
  it.each(['Error again', 'still OOM', 'that didn\'t work, still out of memory', '还是显存不足', 'does --lowvram help with OOM?', 'thanks!\nIt worked.'])('"%s" is a sentence', (text) => {
    expect(isSentence(text)).toBe(true);
  });

  it.each([
    'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.',
    'Traceback (most recent call last):\n  File "execution.py", line 323, in execute',
    'got prompt\nRequested to load SDXL\nloaded completely 9000 MB',
    'CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 8.00 GiB total capacity)',
    `${'still out of memory and I do not know why, '.repeat(10)}`,
  ])('"%s" is a log', (text) => {
    expect(isSentence(text)).toBe(false);
  });
});

describe('what a reply stands for', () => {
  it('presses the buttons that say the same, where the case waits', () => {
    expect(pressesFor('failing', 'answer')).toEqual([{ action: 'failed' }, { reason: 'same' }]);
    expect(pressesFor('different', 'answer')).toEqual([{ action: 'failed' }, { reason: 'different' }]);
    expect(pressesFor('could_not_apply', 'reason')).toEqual([{ reason: 'could_not_apply' }]);
    expect(pressesFor('worked', 'answer')).toEqual([{ action: 'worked' }]);
    expect(pressesFor('stop', 'question')).toEqual([{ action: 'stop' }]);
    expect(pressesFor('question', 'answer')).toBe('show');
    expect(pressesFor('thanks', 'answer')).toBe('ask');
    expect(pressesFor('trying', 'answer')).toBe('wait');
    expect(pressesFor(undefined, 'answer')).toBe('ask');
    expect(pressesFor('worked', 'log')).toBe('show');
  });
});
