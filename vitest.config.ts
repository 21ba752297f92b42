import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';
import ScreenshotsFirst from './test/helpers/sequencer.ts';

/** Test files that read screenshots: they share one OCR pool per worker (test/helpers/ocr.ts). */
const SCREENSHOTS = ['test/ingest/**/*.test.ts', 'test/cli/screenshots.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 20_000,
    // A file per core. vitest's default leaves one core to itself, which on 2 cores runs the files
    // one at a time; most of the slow ones wait on sockets, timers and child processes rather
    // than compute (the run used 1.05 cores), so two at a time cut npm test from 287 s to 198 s.
    maxWorkers: availableParallelism(),
    // The files a worker runs share its modules: the kb is loaded, the classifier compiled and
    // discord.js and Bolt imported once a worker instead of once a file (a second of a core each,
    // some 140 s of the run's CPU in all), and the screenshot files share one OCR pool.
    isolate: false,
    sequence: { sequencer: ScreenshotsFirst },
    projects: [
      // One PostgreSQL server for the store and engine tests (see the file).
      { extends: true, test: { name: 'main', include: ['test/**/*.test.ts'], exclude: [...configDefaults.exclude, ...SCREENSHOTS], globalSetup: ['test/helpers/postgres-server.ts'] } },
      { extends: true, test: { name: 'screenshots', include: SCREENSHOTS } },
    ],
  },
});
