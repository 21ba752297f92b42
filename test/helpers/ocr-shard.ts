// A stand-in for a shard process (test/ingest/shared-ocr.test.ts): it reads the screenshot text
// it is sent as a shard does, preparing the image here and having its manager (the test) read it.
import { prepareForOcr } from '../../src/ingest/image.ts';
import { ingest } from '../../src/ingest/ingest.ts';
import { ocrThroughManager, type Channel } from '../../src/ingest/shared-ocr.ts';
import { renderScreenshot, STYLES } from './screenshot.ts';

const ocr = ocrThroughManager(process as Channel, prepareForOcr);
process.on('message', (m: unknown) => {
  const text = (m as { read?: string } | null)?.read;
  if (typeof text !== 'string') return;
  const shot = renderScreenshot(text, STYLES.consoleDark);
  void ingest({ attachments: [{ name: 'shot.png', read: async () => shot.image }] }, ocr).then((got) => process.send!({ text: got.text, problems: got.problems }));
});
process.send!({ ready: true });
