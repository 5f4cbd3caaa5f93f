import type { I18n } from '@lingui/core';
import { Trans, useLingui } from '@lingui/react/macro';
import { ApiError } from '../api/request';
import { messages } from '../contract/messages';
import { NoRoomError } from '../db/storage-room';
import styles from './upload-failure.module.css';

/** A refused upload as a screen keeps it: the server's words, its status and what else it said. */
export interface Refusal {
  message: string;
  status: number;
  details: unknown;
}

/** What an upload that threw says: the server's refusal as it is; anything else (no answer at all) "Upload failed". */
export function uploadRefusal(error: unknown, i18n: I18n): Refusal {
  const refused = error instanceof ApiError ? error : new ApiError(i18n._(messages.uploadFailed), 0, error);
  return { message: refused.message, status: refused.status, details: refused.details };
}

/** How a picture's upload ended when it did not: no room on this device to keep it for later, or refused. */
export type UploadProblem = { step: 'noRoom' } | ({ step: 'failed' } & Refusal);

export function uploadProblem(error: unknown, i18n: I18n): UploadProblem {
  return error instanceof NoRoomError ? { step: 'noRoom' } : { step: 'failed', ...uploadRefusal(error, i18n) };
}

/** An upload's problem in words: the image field's and the picture field's alike. */
export function UploadProblemNote({ problem }: { problem: UploadProblem }) {
  if (problem.step === 'failed') return <UploadFailure message={problem.message} status={problem.status} details={problem.details} />;
  return (
    <p className={styles.noRoom} role="alert">
      <Trans>This device has no room left to keep the image until it can be uploaded. Free up some space, or choose it again once you are online.</Trans>
    </p>
  );
}

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
