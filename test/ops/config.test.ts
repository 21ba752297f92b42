// The operations settings, validated at start like the others.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/app/config.ts';

const problems = (env: Record<string, string>) => {
  try {
    loadConfig(env);
    return [];
  } catch (e) {
    return (e as ConfigError).problems;
  }
};

describe('operations settings', () => {
  it('has no operations port and logs at info unless told', () => {
    const c = loadConfig({});
    expect(c.http).toBeUndefined();
    expect(c.log).toEqual({ level: 'info' });
  });

  it('reads the port, its interface, the log level and format', () => {
    const c = loadConfig({ COMFYOOM_HTTP_PORT: '9464', COMFYOOM_HTTP_HOST: '0.0.0.0', COMFYOOM_LOG_LEVEL: 'debug', COMFYOOM_LOG_FORMAT: 'json' });
    expect(c.http).toEqual({ port: 9464, host: '0.0.0.0' });
    expect(c.log).toEqual({ level: 'debug', format: 'json' });
    expect(loadConfig({ COMFYOOM_HTTP_PORT: '9464' }).http).toEqual({ port: 9464, host: '127.0.0.1' });
  });

  it('names each wrong value', () => {
    expect(problems({ COMFYOOM_HTTP_PORT: '70000', COMFYOOM_LOG_LEVEL: 'loud', COMFYOOM_LOG_FORMAT: 'xml' })).toEqual([
      'COMFYOOM_HTTP_PORT: COMFYOOM_HTTP_PORT must be a port number (1-65535)',
      'COMFYOOM_LOG_LEVEL: COMFYOOM_LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent',
      'COMFYOOM_LOG_FORMAT: COMFYOOM_LOG_FORMAT must be json or pretty',
    ]);
    expect(problems({ COMFYOOM_HTTP_PORT: 'http' })).toEqual(['COMFYOOM_HTTP_PORT: COMFYOOM_HTTP_PORT must be a port number (1-65535)']);
    const slackHttp = { SLACK_BOT_TOKEN: 'xoxb-1-2-3', SLACK_MODE: 'http', SLACK_SIGNING_SECRET: 's'.repeat(32) };
    expect(problems({ ...slackHttp, COMFYOOM_HTTP_PORT: '3000' })).toEqual(["COMFYOOM_HTTP_PORT: COMFYOOM_HTTP_PORT must differ from SLACK_PORT (3000), where Slack's requests arrive"]);
    expect(problems({ ...slackHttp, COMFYOOM_HTTP_PORT: '3000', SLACK_PORT: '3001' })).toEqual([]);
  });
});
