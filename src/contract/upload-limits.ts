/**
 * What the server takes in one uploaded file (server/files/images.ts): its bytes, and for an image
 * the pixels they may unpack to (past them it could be a decompression bomb). The app checks a
 * file against them before sending or keeping it, so a photo that would be refused is refused at
 * once, in the server's words, not after it waited on the device.
 */
export const UPLOAD_LIMITS = { maxBytes: 10 * 1024 * 1024, maxPixels: 40_000_000 } as const;
