import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Test files that read screenshots: they share one OCR pool and one kb per worker (test/helpers/ocr.ts,
 * test/helpers/kb.ts), which needs them to run without isolation, each worker loading a module once.
 */
const SCREENSHOTS = ['test/ingest/**/*.test.ts', 'test/cli/screenshots.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 20_000,
    projects: [
      { extends: true, test: { name: 'main', include: ['test/**/*.test.ts'], exclude: [...configDefaults.exclude, ...SCREENSHOTS] } },
      { extends: true, test: { name: 'screenshots', include: SCREENSHOTS, isolate: false } },
    ],
  },
});
