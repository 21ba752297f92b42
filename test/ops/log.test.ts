// The log's two forms: JSON lines for collectors, a readable line for a terminal.
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, eventLog } from '../../src/ops/log.ts';

function into() {
  const chunks: string[] = [];
  const to = new Writable({
    write(chunk: Buffer, _enc, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  return { to, text: () => chunks.join('') };
}

describe('the log', () => {
  it('writes JSON lines at the level asked for, errors as type, message and stack', () => {
    const out = into();
    const log = createLogger({ level: 'warn', format: 'json', to: out.to });
    log.info('not shown');
    const err = Object.assign(new Error('Internal Server Error'), { status: 500, requestBody: { json: { content: 'the paste' } } });
    log.warn({ err, caseId: 'abc' }, 'posting failed');
    const lines = out.text().trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toEqual([expect.objectContaining({ level: 40, msg: 'posting failed', caseId: 'abc', err: { type: 'Error', message: 'Internal Server Error', status: 500, stack: expect.stringContaining('Internal Server Error') } })]);
  });

  it("logs the Discord adapter's notes at info and its failures at warn", () => {
    const out = into();
    const note = eventLog(createLogger({ level: 'info', format: 'json', to: out.to }));
    note('2 shards connected');
    note('interaction 1 failed', new Error('Unknown interaction'));
    const lines = out.text().trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => [l['level'], l['msg']])).toEqual([
      [30, '2 shards connected'],
      [40, 'interaction 1 failed'],
    ]);
  });

  it('writes a readable line when asked for the pretty form', () => {
    const out = into();
    createLogger({ level: 'info', format: 'pretty', to: out.to }).info({ platforms: ['discord'] }, 'connected');
    const text = out.text();
    expect(text).toMatch(/INFO.*connected/);
    expect(text).toMatch(/platforms: \[\s*"discord"\s*\]/);
    expect(() => JSON.parse(text)).toThrow();
  });
});
