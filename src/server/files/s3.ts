import type { S3Client } from '@aws-sdk/client-s3';
import type { S3Config } from '../config';
import { checkedKey, FILE_TYPES, type FileStorage } from './storage';

/**
 * Uploaded files in a bucket of S3 or an S3-compatible store (docs/design.md §9), so several
 * instances serve the same files. The SDK loads on the first file, not at start. Keys are the
 * server's, as on disk; the bucket stays private, the API serves the files (routes/files.ts).
 */
export function s3Storage(config: S3Config): FileStorage {
  let client: Promise<{ s3: S3Client; sdk: typeof import('@aws-sdk/client-s3') }> | null = null;
  const connect = () =>
    (client ??= import('@aws-sdk/client-s3').then((sdk) => ({
      sdk,
      s3: new sdk.S3Client({
        region: config.region,
        forcePathStyle: config.forcePathStyle,
        ...(config.endpoint ? { endpoint: config.endpoint } : {}),
        ...(config.credentials ? { credentials: config.credentials } : {}),
        // Checksums only where S3 requires them: many compatible stores reject the SDK's newer defaults.
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
      }),
    })));
  const Bucket = config.bucket;
  return {
    async put(key, data) {
      const { s3, sdk } = await connect();
      const ContentType = FILE_TYPES[key.slice(key.lastIndexOf('.') + 1)];
      await s3.send(new sdk.PutObjectCommand({ Bucket, Key: checkedKey(key), Body: data, ContentType }));
    },
    async get(key) {
      const { s3, sdk } = await connect();
      try {
        const object = await s3.send(new sdk.GetObjectCommand({ Bucket, Key: checkedKey(key) }));
        return object.Body ? Buffer.from(await object.Body.transformToByteArray()) : null;
      } catch (error) {
        if (error instanceof sdk.NoSuchKey || (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return null;
        throw error;
      }
    },
    async remove(key) {
      const { s3, sdk } = await connect();
      // Deleting a missing object succeeds in S3: gone afterwards either way.
      await s3.send(new sdk.DeleteObjectCommand({ Bucket, Key: checkedKey(key) }));
    },
  };
}
