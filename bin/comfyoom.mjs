#!/usr/bin/env node
// Runs the JavaScript compiled at install (dist/) while it is as new as every source file, and
// the TypeScript sources through tsx otherwise (a fresh edit, or an install that compiled nothing).
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// Settings may live in a .env file next to where the bot is started (see .env.example).
if (existsSync('.env')) process.loadEnvFile('.env');

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const built = join(root, 'dist', '.built');
const newestSource = (dir) =>
  readdirSync(dir, { withFileTypes: true }).reduce((t, e) => Math.max(t, e.isDirectory() ? newestSource(join(dir, e.name)) : statSync(join(dir, e.name)).mtimeMs), 0);
const fresh = existsSync(built) && statSync(built).mtimeMs >= newestSource(join(root, 'src'));

let main;
if (fresh) ({ main } = await import('../dist/cli/main.js'));
else {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('../src/cli/main.ts'));
}
process.exitCode = await main(process.argv.slice(2));
