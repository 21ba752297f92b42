#!/usr/bin/env node
// Runs the TypeScript sources directly through tsx, so a fresh clone needs no build step.
import { existsSync } from 'node:fs';
import { register } from 'tsx/esm/api';

// Settings may live in a .env file next to where the bot is started (see .env.example).
if (existsSync('.env')) process.loadEnvFile('.env');
register();
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
