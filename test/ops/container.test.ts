// The container files, checked without a Docker engine: the Dockerfile's stages, sources, user,
// volume and health check; .dockerignore's selection; compose.yaml's service, volume and variables,
// each a variable the bot's configuration reads and accepts; .env.example as `docker run --env-file`
// reads it over the image's settings.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { STOP_LIMIT_MS } from '../../src/app/bots.ts';
import { loadConfig, VARIABLES } from '../../src/app/config.ts';
import { dockerEnvFile, envOf, instructions } from '../helpers/dockerfile.ts';
import { MALLOC_TUNING } from '../../scripts/malloc.mjs';

const root = join(import.meta.dirname, '..', '..');
const read = (file: string) => readFileSync(join(root, file), 'utf8');

/** Whether .dockerignore sends a top-level path to the builder: the last pattern that matches decides. */
function sent(path: string): boolean {
  const top = path.split('/')[0]!;
  let included = true;
  for (const raw of read('.dockerignore').split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const negated = line.startsWith('!');
    const pattern = (negated ? line.slice(1) : line).replace(/\/$/, '');
    if (pattern === '*' || pattern === top || pattern === path.replace(/\/$/, '')) included = negated;
  }
  return included;
}

describe('the Dockerfile', () => {
  const list = instructions(read('Dockerfile'));
  const last = Math.max(...list.map((i) => i.stage));
  const runtime = list.filter((i) => i.stage === last);

  it('builds in a stage of the current Node LTS (24) with the tools to compile better-sqlite3 and re2, and runs on the same base without them', () => {
    expect(list.filter((i) => i.op === 'FROM').map((i) => i.args)).toEqual(['node:24-bookworm-slim AS build', 'node:24-bookworm-slim']);
    const build = list.filter((i) => i.stage === 0 && i.op === 'RUN').map((i) => i.args);
    expect(build.join(' ')).toMatch(/apt-get install .*python3 make g\+\+/);
    expect(build.join(' ')).toMatch(/npm ci/);
    expect(runtime.filter((i) => i.op === 'RUN').map((i) => i.args).join(' ')).not.toMatch(/apt-get|npm|curl|wget/);
    expect(runtime).toContainEqual(expect.objectContaining({ op: 'COPY', args: '--from=build /app /app' }));
  });

  it('copies only files that exist and that .dockerignore sends, and never .env, databases or node_modules', () => {
    const sources = list.filter((i) => i.op === 'COPY' && !i.args.startsWith('--from')).flatMap((i) => i.args.split(' ').slice(0, -1));
    expect(sources.length).toBeGreaterThan(5);
    for (const s of sources) {
      expect(existsSync(join(root, s)), s).toBe(true);
      expect(sent(s), s).toBe(true);
    }
    for (const never of ['.env', 'node_modules', 'dist', 'data', 'test', 'comfyoom.db', 'kb/drafts']) expect(sent(never), never).toBe(false);
    // What the bot reads at run time comes with the npm packages: OCR data and the chart font.
    const deps = Object.keys((JSON.parse(read('package.json')) as { dependencies: Record<string, string> }).dependencies);
    expect(deps).toEqual(expect.arrayContaining(['@tesseract.js-data/eng', '@tesseract.js-data/chi_sim', '@fontsource-variable/noto-sans-sc', '@fontsource-variable/noto-sans-kr']));
  });

  it('runs the bot as a user other than root, its database in the volume, healthy by /healthz', () => {
    const user = runtime.filter((i) => i.op === 'USER').at(-1)?.args;
    expect(user).toBeDefined();
    expect(user).not.toMatch(/^(root|0)(:|$)/);
    const env = envOf(runtime);
    // Besides the bot's own settings: Node's mode, and glibc's tuning as `npm start` sets it.
    expect(Object.keys(env).filter((k) => k !== 'NODE_ENV' && !(k in MALLOC_TUNING) && !VARIABLES.includes(k))).toEqual([]);
    expect(env).toMatchObject(MALLOC_TUNING);
    const config = loadConfig(env);
    expect(runtime.filter((i) => i.op === 'VOLUME').map((i) => i.args)).toEqual([dirname(config.db)]);
    expect(config.http).toEqual({ port: 9464, host: '0.0.0.0' });
    expect(runtime.find((i) => i.op === 'EXPOSE')?.args).toBe(String(config.http!.port));
    expect(runtime.find((i) => i.op === 'HEALTHCHECK')?.args).toMatch(/COMFYOOM_HTTP_PORT.*\/healthz/);
    // --bots: no terminal mode in a container, where nobody is at the terminal.
    const cmd = JSON.parse(runtime.find((i) => i.op === 'CMD')!.args) as string[];
    expect(cmd).toEqual(['node', 'bin/comfyoom.mjs', 'start', '--bots']);
    expect(existsSync(join(root, cmd[1]!))).toBe(true);
  });
});

describe('compose.yaml', () => {
  type Service = { build?: string; image?: string; environment: Record<string, string>; volumes?: string[]; ports?: string[]; stop_grace_period?: string; depends_on?: Record<string, { condition: string }>; healthcheck?: { test: string[] } };
  const compose = parse(read('compose.yaml')) as { services: Record<string, Service>; volumes: Record<string, unknown> };
  const bot = compose.services['comfyoom']!;

  it('runs the bot built from this folder on the compose PostgreSQL, whose data is in a named volume', () => {
    expect(bot.build).toBe('.');
    const url = new URL(loadConfig(bot.environment).databaseUrl!);
    const postgres = compose.services[url.hostname]!;
    expect(postgres.image).toMatch(/^postgres:\d+/);
    // The URL names the user and database the server is created with.
    expect(decodeURIComponent(url.username)).toBe(postgres.environment['POSTGRES_USER']);
    expect(url.pathname.slice(1)).toBe(postgres.environment['POSTGRES_DB']);
    const mounts = postgres.volumes!.map((v) => v.split(':'));
    expect(mounts).toEqual([[expect.any(String), '/var/lib/postgresql/data']]);
    expect(Object.keys(compose.volumes)).toContain(mounts[0]![0]);
    // The bot keeps nothing of its own in the container: its cases are in the server.
    expect(bot.volumes).toBeUndefined();
  });

  it('starts the bot once PostgreSQL answers (the store migrates at start)', () => {
    const host = new URL(loadConfig(bot.environment).databaseUrl!).hostname;
    expect(bot.depends_on?.[host]).toEqual({ condition: 'service_healthy' });
    expect(compose.services[host]!.healthcheck?.test).toContain('pg_isready');
  });

  it('sets only variables the bot reads, its operations port published on this machine', () => {
    expect(Object.keys(bot.environment).filter((k) => !VARIABLES.includes(k))).toEqual([]);
    const config = loadConfig(bot.environment);
    expect(bot.ports).toEqual([`127.0.0.1:${config.http!.port}:${config.http!.port}`]);
    // docker stop's grace outlasts the bot's own limit.
    expect(Number(/^(\d+)s$/.exec(bot.stop_grace_period!)![1]) * 1000).toBeGreaterThan(STOP_LIMIT_MS);
  });
});

describe('.env.example under docker run --env-file', () => {
  const file = dockerEnvFile(read('.env.example'));

  it('holds only variables the bot reads, none with a comment in its value', () => {
    expect(Object.keys(file).length).toBeGreaterThan(10);
    // COMFYOOM_KB is read where the kb is found (src/kb/cache.ts), not with the bots' settings.
    expect(Object.keys(file).filter((k) => !VARIABLES.includes(k) && k !== 'COMFYOOM_KB')).toEqual([]);
    expect(Object.entries(file).filter(([, v]) => v.includes('#'))).toEqual([]);
    expect(() => loadConfig(file)).not.toThrow();
  });

  it("leaves the image's own settings to the image: the database in its volume, the port its health check asks", () => {
    const runtime = instructions(read('Dockerfile')).filter((i, _, all) => i.stage === Math.max(...all.map((x) => x.stage)));
    const image = envOf(runtime);
    const config = loadConfig({ ...image, ...file });
    expect(config.db).toBe(loadConfig(image).db);
    expect(runtime.filter((i) => i.op === 'VOLUME').map((i) => i.args)).toEqual([dirname(config.db)]);
    expect(config.http).toEqual(loadConfig(image).http);
    expect(config.log).toEqual(loadConfig(image).log);
  });
});
