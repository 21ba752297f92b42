/**
 * How long a test waits for the bot's next effect (a REST call, a socket ack, a row) before it
 * fails. A wait ends as soon as the effect arrives, so this costs nothing when the bot works; it
 * only has to outlast a loaded 2-core machine, where a worker thread starting or a file rewritten
 * beside the OCR corpus and the sharding test took longer than the 5 s these waits once allowed,
 * and other work beside the suite (a load average of 5 and more) stretches every step again.
 */
export const PATIENCE_MS = 30_000;
