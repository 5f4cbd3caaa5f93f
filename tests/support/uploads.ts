import { randomUUID } from 'node:crypto';
import sharp from 'sharp';

/** A real PNG of one colour. */
export function png(width = 64, height = 48): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#3366cc' } })
    .png()
    .toBuffer();
}

/** CRC-32 as PNG chunks carry it. */
function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit += 1) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/**
 * A decompression bomb: a tiny, valid-looking PNG whose header declares `width`×`height` pixels
 * (its IHDR rewritten, with a correct CRC), so only the declared size gives it away.
 */
export async function pixelBomb(width = 20_000, height = 20_000): Promise<Buffer> {
  const data = Buffer.from(await png(1, 1));
  // Signature (8), IHDR length (4) and type (4), then width and height; the CRC covers type and data.
  if (data.toString('latin1', 12, 16) !== 'IHDR') throw new Error('not a PNG');
  data.writeUInt32BE(width, 16);
  data.writeUInt32BE(height, 20);
  data.writeUInt32BE(crc32(data.subarray(12, 29)), 29);
  return data;
}

export const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script><rect width="10" height="10"/></svg>');
export const html = Buffer.from('<!doctype html><html><body><script>alert(document.cookie)</script></body></html>');

/** A multipart/form-data body with one file part, as a browser's upload sends it. */
export function multipartFile(file: { data: Buffer; filename: string; contentType: string }, field = 'file') {
  const boundary = `----sitekeeper${randomUUID().replaceAll('-', '')}`;
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${file.filename}"\r\nContent-Type: ${file.contentType}\r\n\r\n`;
  return {
    payload: Buffer.concat([Buffer.from(head), file.data, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}
