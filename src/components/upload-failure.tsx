import { Trans, useLingui } from '@lingui/react/macro';
import styles from './upload-failure.module.css';

interface UploadFailureProps {
  /** The server's message (its `error` first, spec §8), or "Upload failed". */
  message: string;
  /** The HTTP status; 0 when no answer came, and then none is shown. */
  status: number;
  /** What the server said beyond its message: its body (`errors`, `data`), or the two as the outbox keeps them. */
  details?: unknown;
}

/** What the server said beyond its message: each field error, and the limit a file broke. */
function useDetails(details: unknown): string[] {
  const { t, i18n } = useLingui();
  const body = (details ?? {}) as { errors?: unknown; data?: unknown };
  const lines = Array.isArray(body.errors) ? body.errors.flatMap((error: { message?: unknown }) => (typeof error?.message === 'string' ? [error.message] : [])) : [];
  const data = (body.data ?? {}) as { maxBytes?: unknown; maxPixels?: unknown };
  if (typeof data.maxBytes === 'number') {
    const megabytes = i18n.number(data.maxBytes / 1024 / 1024, { maximumFractionDigits: 1 });
    lines.push(t`Files may be up to ${megabytes} MB.`);
  }
  if (typeof data.maxPixels === 'number') {
    const megapixels = i18n.number(data.maxPixels / 1_000_000, { maximumFractionDigits: 1 });
    lines.push(t`Images may have up to ${megapixels} megapixels.`);
  }
  // A server that repeats its one reason as a field error says it once.
  return [...new Set(lines)];
}

/**
 * A refused upload (spec §8): the server's message or "Upload failed", the HTTP status, and the
 * details: the image's upload, the media library and the sync panel say it alike.
 */
export function UploadFailure({ message, status, details }: UploadFailureProps) {
  const lines = useDetails(details).filter((line) => line !== message);
  return (
    <div className={styles.failure} role="alert">
      <p className={styles.text}>
        <strong>{message}</strong>
        {status > 0 && (
          <span className={styles.code}>
            {' '}
            <Trans>(HTTP {status})</Trans>
          </span>
        )}
      </p>
      {lines.length > 0 && (
        <ul className={styles.details}>
          {lines.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
