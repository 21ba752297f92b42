// What a message may carry, apart from the code that reads it: the CLI checks a file against
// these before it loads the image and OCR libraries (which only screenshots need).

export const INGEST_LIMITS = {
  maxFiles: 5,
  /** Log files larger than this are refused before download (head and tail are what matters). */
  maxFileBytes: 8 * 1024 * 1024,
};

export const IMAGE_LIMITS = {
  maxBytes: 10 * 1024 * 1024,
  maxPixels: 40_000_000,
  maxWidth: 4000,
  /**
   * What Tesseract is given, after scaling: it needs some 25 bytes a pixel (a 156 MP image took
   * 3.8 GB), so a tall screenshot is scaled to fit this rather than up to its best text height.
   */
  maxOcrPixels: 16_000_000,
};

/** A .zip or .gz attachment (itself within maxFileBytes): what is read of it, however it is packed. */
export const ARCHIVE_LIMITS = {
  /** Entries looked at, in order; the rest are not. */
  maxEntries: 20,
  /** Bytes unpacked in all; past it, the archive is refused as a bomb. */
  maxUnpackedBytes: 16 * 1024 * 1024,
  /** Unpacked bytes per packed byte of an entry; logs pack about 10:1, bombs 1000:1. */
  maxRatio: 100,
};

export const TEXT_FILE = /\.(txt|log|md|json|out|err|yaml|yml|csv)$/i;
export const IMAGE_FILE = /\.(png|jpe?g|webp)$/i;
