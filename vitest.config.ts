import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';
import ScreenshotsFirst from './test/helpers/sequencer.ts';

/** Test files that read screenshots: they share one OCR pool per worker (test/helpers/ocr.ts). */
const SCREENSHOTS = ['test/ingest/**/*.test.ts', 'test/cli/screenshots.test.ts'];
/**
 * Test files that run the bots against the local fake platforms, or the CLI as a process. They
 * share their worker's modules as the rest do: that once lost Discord's posts with a file when a
 * Slack file had loaded Bolt first, a bug of the bot's (test/discord/beside-slack.test.ts holds it),
 * and two fresh clones' runs passed sharing once it was fixed, importing in 20 s instead of 61 s.
 */
const PLATFORMS = ['test/discord/**/*.test.ts', 'test/slack/**/*.test.ts', 'test/ops/**/*.test.ts', 'test/app/!(sweep).test.ts', 'test/cli/**/*.test.ts'];

export default defineConfig({
  test: {
    // Limits that catch a hang, not a slow machine: under a load average of 5 to 8 on the 2 cores,
    // tests that did real work (OCR, child processes, sockets) took two to four times as long.
    testTimeout: 60_000,
    // A file per core. vitest's default leaves one core to itself, which on 2 cores runs the files
    // one at a time; most of the slow ones wait on sockets, timers and child processes rather
    // than compute (the run used 1.05 cores), so two at a time cut npm test from 287 s to 198 s.
    maxWorkers: availableParallelism(),
    sequence: { sequencer: ScreenshotsFirst },
    projects: [
      // An English page is read in 6 s on a quiet machine and took 11 s to 20 s and more beside other work.
      { extends: true, test: { name: 'screenshots', include: SCREENSHOTS, isolate: false, testTimeout: 180_000 } },
      { extends: true, test: { name: 'platforms', include: PLATFORMS, exclude: [...configDefaults.exclude, ...SCREENSHOTS], isolate: false } },
      // The rest share their worker's modules: the kb is loaded and the classifier compiled once a
      // worker instead of once a file. One PostgreSQL server for the store and engine tests (see the file).
      { extends: true, test: { name: 'main', include: ['test/**/*.test.ts'], exclude: [...configDefaults.exclude, ...SCREENSHOTS, ...PLATFORMS], isolate: false, globalSetup: ['test/helpers/postgres-server.ts'] } },
    ],
  },
});
