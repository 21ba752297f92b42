#!/usr/bin/env node
// Runs the JavaScript compiled at install (dist/) while it is as new as every source file, and
// the TypeScript sources through tsx otherwise (a fresh edit, or an install that compiled nothing).
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { distIsFresh } from '../scripts/dist-fresh.mjs';
import { withTunedMalloc } from '../scripts/malloc.mjs';

// The bots run for weeks: their memory should go back down after a burst of large logs.
if (process.argv[2] === 'start') withTunedMalloc();

// Settings may live in a .env file next to where the bot is started (see .env.example).
if (existsSync('.env')) process.loadEnvFile('.env');

const fresh = distIsFresh(join(dirname(fileURLToPath(import.meta.url)), '..'));

let main;
if (fresh) ({ main } = await import('../dist/cli/main.js'));
else {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('../src/cli/main.ts'));
}
process.exitCode = await main(process.argv.slice(2));
