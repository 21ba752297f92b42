// A process of its own for the concurrency tests (run with `node --import tsx`). It says "ready",
// then waits for the file GO to appear and reads a start time from it, so that several such
// processes hit the same database within a millisecond or two, which the CLI's own start-up
// (which varies by a hundred) rarely achieves.
//   open GO GAP PATH...     opens each PATH in turn, the k-th at start + k * GAP ms
//   write GO STOP PATH TAG  stores whole conversations of user TAG until the file STOP appears,
//                           then prints how many
//   cases PATH              stores one case per line read ("write ID"), answering each line
//                           with "stored ID" or "refused ID: <why>"; the test kills it
import { existsSync, readFileSync } from 'node:fs';
import { CaseStore } from '../../src/store/cases.ts';
import { openDb } from '../../src/store/db.ts';
import { sqliteSql } from '../../src/store/sql.ts';
import { playCase, rng, storeCase } from './simulate.ts';

const pause = new Int32Array(new SharedArrayBuffer(4));
const sleep = (ms: number) => Atomics.wait(pause, 0, 0, ms);
const until = (t: number) => {
  while (Date.now() < t) sleep(Math.min(2, t - Date.now()));
};

function started(go: string): number {
  process.stdout.write('ready\n');
  while (!existsSync(go)) sleep(2);
  const start = Number(readFileSync(go, 'utf8'));
  until(start);
  return start;
}

const [mode, go, ...args] = process.argv.slice(2) as [string, string, ...string[]];
if (mode === 'open') {
  const [gap, ...paths] = args;
  const start = started(go);
  paths.forEach((path, k) => {
    until(start + k * Number(gap));
    openDb(path).close();
  });
} else if (mode === 'write') {
  const [stop, path, tag] = args as [string, string, string];
  const store = new CaseStore(sqliteSql(openDb(path)));
  const r = rng(tag.length * 7919 + tag.charCodeAt(tag.length - 1));
  started(go);
  let n = 0;
  for (; !existsSync(stop); n++) {
    await storeCase(store, { id: `${tag}-${n}`, platform: 'test', userId: tag, createdAt: Date.now(), facts: {}, paste: `paste of ${tag}` }, playCase(r, `${tag}-${n}`, tag, Date.now()));
    sleep(10); // leaves the chats some CPU on a small machine, but keeps the lock contended
  }
  await store.sql.close();
  process.stdout.write(`wrote ${n}\n`);
}
else if (mode === 'cases') {
  const store = new CaseStore(sqliteSql(openDb(go)));
  const { createInterface } = await import('node:readline');
  const r = rng(7);
  process.stdout.write('ready\n');
  for await (const line of createInterface({ input: process.stdin })) {
    const id = line.replace(/^write /, '');
    try {
      await storeCase(store, { id, platform: 'test', userId: 'u', createdAt: Date.now(), facts: {}, paste: `paste of ${id}` }, playCase(r, id, 'u', Date.now()));
      process.stdout.write(`stored ${id}\n`);
    } catch (e) {
      process.stdout.write(`refused ${id}: ${(e as Error).message}\n`);
    }
  }
}
