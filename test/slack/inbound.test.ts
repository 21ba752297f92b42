// Slack's message text back to what was typed, and what counts as a log.
import { describe, expect, it } from 'vitest';
import { slackAttachments, slackToPlain, withoutMentionOf } from '../../src/adapters/slack/inbound.ts';

describe('slackToPlain', () => {
  it('decodes entities and turns links and mentions into plain words', () => {
    expect(slackToPlain("&lt;class 'torch.OutOfMemoryError'&gt; a &amp;&amp; b")).toBe("<class 'torch.OutOfMemoryError'> a && b");
    expect(slackToPlain('<@U123|bob> <@U456> <#C1|help> <!here> <!subteam^S1|@gpu-team> <https://x.org/a|x.org> <mailto:a@b.c>')).toBe(
      '@bob @U456 #help @here @gpu-team x.org mailto:a@b.c',
    );
    expect(slackToPlain('&amp;lt;')).toBe('&lt;');
  });

  it('drops only the mention of the bot', () => {
    expect(withoutMentionOf('<@UBOT> look <@UBOT|comfyoom> at <@U1>', 'UBOT')).toBe('look   at <@U1>');
  });
});

describe('slackAttachments', () => {
  it('wraps files lazily and never sends the token to a host that is not trusted', async () => {
    let asked = 0;
    const [file] = slackAttachments([{ id: 'F1', name: 'a.log', mimetype: 'text/plain', size: 10, url_private_download: 'https://evil.example/a.log' }], {
      botToken: 'xoxb-secret',
      trustedHost: (h) => h.endsWith('.slack.com'),
      info: async () => {
        asked++;
        return undefined;
      },
    });
    expect(file).toMatchObject({ name: 'a.log', contentType: 'text/plain', size: 10 });
    await expect(file!.read()).rejects.toThrow(/refusing to send the bot token/);
    expect(asked).toBe(0);
    expect(slackAttachments([{ id: 'F2', name: 'gone.log', mode: 'tombstone' }], { botToken: '', trustedHost: () => true, info: async () => undefined })).toHaveLength(0);
  });
});
