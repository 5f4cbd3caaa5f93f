import { Trans, useLingui } from '@lingui/react/macro';
import { ImageOff, ImageUp, LoaderCircle, WifiOff } from 'lucide-react';
import { useEffect, useId, useRef, useState, type ChangeEvent } from 'react';
import { ApiError } from '../api/request';
import { IMAGE_TYPES, uploadFile, type Uploaded } from '../api/upload';
import { messages } from '../contract/messages';
import type { Resource } from '../contract/resource';
import { accept } from '../db/store';
import { useOnline } from '../db/use-sync-status';
import { Button } from './form/button';
import styles from './image-upload.module.css';

interface ImageUploadProps {
  /** Translated: what the image is ("Logo", "Preview"); also its alternative text. */
  label: string;
  /** Where the file is posted (multipart `file`): `/api/settings/logo`, `/api/websites/{id}/upload-preview`. */
  uploadPath: string;
  /** The image on show now; null when there is none yet. */
  imageUrl: string | null;
  /**
   * The record's entry (in its scope) when the upload changes a record of the registry: the answer
   * is checked with its entity schema, the new image read from its `image.field`, and the
   * record's cached copy on this device replaced by the answer.
   */
  resource?: Resource;
  /** The server's answer: the record with its new image. */
  onUploaded?: (entity: Uploaded) => void;
  disabled?: boolean;
}

type State =
  | { step: 'idle' }
  | { step: 'uploading'; preview: string }
  | { step: 'done' }
  | { step: 'failed'; message: string; status: number; details: string[] };

/** What the server said beyond its message: each field error, and the limit a file broke. */
function useDetails() {
  const { t, i18n } = useLingui();
  return (details: unknown): string[] => {
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
    return lines;
  };
}

/**
 * One image of a record (a website's preview, the logo): shows the current one, takes a new one
 * from the device's files or its camera, shows it at once while it uploads and the server's
 * answer after. Spec §8: a refusal shows the server's message (else "Upload failed") with the
 * HTTP status and details. Uploads need a connection; offline it says so instead of trying.
 */
export function ImageUpload({ label, uploadPath, imageUrl, resource, onUploaded, disabled = false }: ImageUploadProps) {
  const { t, i18n } = useLingui();
  const online = useOnline();
  const input = useRef<HTMLInputElement>(null);
  const controller = useRef<AbortController | null>(null);
  const [state, setState] = useState<State>({ step: 'idle' });
  // The image the last upload left, until the owner shows another (it may follow the answer, or not).
  const [uploaded, setUploaded] = useState<{ over: string | null; url: string } | null>(null);
  const titleId = useId();
  const statusId = useId();
  const explain = useDetails();

  // Object URLs of previews are let go once not shown any more, and everything when the component goes.
  const previews = useRef(new Set<string>());
  /** The preview that stands for the uploaded image (when the answer names no address of it). */
  const kept = useRef<string | null>(null);
  useEffect(() => {
    const held = previews.current;
    return () => {
      controller.current?.abort();
      for (const url of held) URL.revokeObjectURL(url);
    };
  }, []);
  const release = (keep: string | null) => {
    for (const url of previews.current) {
      if (url === keep) continue;
      URL.revokeObjectURL(url);
      previews.current.delete(url);
    }
  };

  async function upload(file: File) {
    controller.current?.abort();
    const current = (controller.current = new AbortController());
    const preview = URL.createObjectURL(file);
    previews.current.add(preview);
    setState({ step: 'uploading', preview });
    try {
      const entity = await uploadFile(uploadPath, file, { signal: current.signal, entity: resource?.entity });
      // Only the device's copy: the image is on the server whether or not it could be kept here.
      if (resource) await accept(resource, entity).catch(() => undefined);
      const field = resource?.image?.field;
      const served = field && typeof entity[field] === 'string' ? (entity[field] as string) : null;
      // Without the served address, the picture just sent is the best likeness of what the server holds.
      setUploaded({ over: imageUrl, url: served ?? preview });
      kept.current = served ? null : preview;
      release(kept.current);
      setState({ step: 'done' });
      onUploaded?.(entity);
    } catch (error) {
      if (current.signal.aborted) return;
      release(kept.current);
      const failed = error instanceof ApiError ? error : new ApiError(i18n._(messages.uploadFailed), 0, error);
      setState({ step: 'failed', message: failed.message, status: failed.status, details: explain(failed.details) });
    }
  }

  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // The same file chosen again (after a failure) is a change too.
    event.target.value = '';
    if (!file) return;
    if (!navigator.onLine) {
      setState({ step: 'idle' });
      return;
    }
    void upload(file);
  };

  const uploading = state.step === 'uploading';
  const failedStatus = state.step === 'failed' ? state.status : 0;
  const shown = uploading ? state.preview : uploaded && uploaded.over === imageUrl ? uploaded.url : imageUrl;

  return (
    <div className={styles.root} role="group" aria-labelledby={titleId}>
      <p id={titleId} className={styles.title}>
        {label}
      </p>
      <div className={styles.frame} aria-busy={uploading || undefined}>
        {shown ? (
          <img className={uploading ? `${styles.image} ${styles.pending}` : styles.image} src={shown} alt={label} />
        ) : (
          <span className={styles.empty}>
            <ImageOff aria-hidden size={24} />
            <Trans>No image yet</Trans>
          </span>
        )}
        {uploading && <LoaderCircle className={styles.spinner} aria-hidden size={28} />}
      </div>
      <div className={styles.actions}>
        <input
          ref={input}
          className={styles.input}
          type="file"
          // Listed types, not image/*: the server takes these five; phones offer their camera for them.
          accept={IMAGE_TYPES.join(',')}
          aria-label={t`Choose an image for ${label}`}
          aria-describedby={statusId}
          tabIndex={-1}
          disabled={disabled || uploading || !online}
          onChange={choose}
        />
        <Button variant="secondary" busy={uploading} disabled={disabled || !online} onClick={() => input.current?.click()}>
          <ImageUp aria-hidden size={18} />
          {shown && !uploading ? <Trans>Replace image</Trans> : <Trans>Choose image</Trans>}
        </Button>
        <span className={styles.types}>
          <Trans>JPEG, PNG, WebP, GIF or AVIF</Trans>
        </span>
      </div>
      <p id={statusId} className={styles.status} role="status">
        {uploading && <Trans>Uploading…</Trans>}
        {state.step === 'done' && <Trans>Image uploaded.</Trans>}
      </p>
      {!online && (
        <p className={styles.offline}>
          <WifiOff aria-hidden size={18} />
          <Trans>Uploading an image needs a connection. Connect to the internet to upload one.</Trans>
        </p>
      )}
      {state.step === 'failed' && (
        <div className={styles.failure} role="alert">
          <p className={styles.failureText}>
            <strong>{state.message}</strong>
            {failedStatus > 0 && (
              <span className={styles.code}>
                {' '}
                <Trans>(HTTP {failedStatus})</Trans>
              </span>
            )}
          </p>
          {state.details.length > 0 && (
            <ul className={styles.details}>
              {state.details.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}
