import { Trans, useLingui } from '@lingui/react/macro';
import { CloudUpload, ImageOff, ImageUp, LoaderCircle, WifiOff } from 'lucide-react';
import { useEffect, useId, useRef, useState, type ChangeEvent } from 'react';
import { IMAGE_TYPES, type Uploaded } from '../api/upload';
import { messages } from '../contract/messages';
import type { Resource } from '../contract/resource';
import { accept } from '../db/device-store';
import { uploadOrQueue } from '../db/upload-or-queue';
import { useEntryFile, useQueuedUploads } from '../db/use-queued-uploads';
import { useOnline } from '../db/use-sync-status';
import { BlobImage } from './blob-image';
import { Button } from './form/button';
import styles from './image-upload.module.css';
import { UploadFailure, UploadProblemNote, uploadProblem, type UploadProblem } from './upload-failure';

interface ImageUploadProps {
  /** Translated: what the image is ("Logo", "Preview"); also its alternative text. */
  label: string;
  /** Where the file is posted (multipart `file`): `/api/settings/logo`, `/api/websites/{id}/upload-preview`. */
  uploadPath: string;
  /** The image on show now; null when there is none yet. */
  imageUrl: string | null;
  /**
   * The record's entry (bound to its website) when the upload changes a record of the registry:
   * the answer is checked with its entity schema, the new image read from its `image.field`, and
   * the record's cached copy on this device replaced by the answer.
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
  | UploadProblem;

/** Where an upload without a registry record is kept in the outbox. */
const IMAGES = 'images';

/**
 * One image of a record (a website's preview, the logo): shows the current one, takes a new one
 * from the device's files or its camera, shows it at once while it uploads and the server's
 * answer after. Spec §8: a refusal shows the server's message (else "Upload failed") with the
 * HTTP status and details. Offline (or when no answer comes) the image is kept on the device in
 * the outbox and shown as waiting, also after the app was closed, until it is sent.
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
  // This image's upload waiting in the outbox (or refused there), and its file.
  const queued = useQueuedUploads(resource?.name ?? IMAGES, resource?.boundKey).find((entry) => entry.entityId === uploadPath);
  const queuedFile = useEntryFile(queued?.seq);

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
      const outcome = await uploadOrQueue(
        {
          resource: resource?.name ?? IMAGES,
          scope: resource?.boundKey,
          entityId: uploadPath,
          path: uploadPath,
          file: { field: 'file', blob: file, name: file.name },
          label: { item: label, title: '' },
          fallback: i18n._(messages.uploadFailed),
        },
        { signal: current.signal, entity: resource?.entity },
      );
      if (outcome.status === 'queued') {
        // Shown from the outbox while it waits; once sent, the picture picked stands for it.
        setUploaded({ over: imageUrl, url: preview });
        kept.current = preview;
        release(preview);
        setState({ step: 'idle' });
        return;
      }
      const { entity } = outcome;
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
      setState(uploadProblem(error, i18n));
    }
  }

  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // The same file chosen again (after a failure) is a change too.
    event.target.value = '';
    if (file) void upload(file);
  };

  const uploading = state.step === 'uploading';
  const waiting = queued?.status === 'pending';
  const refused = queued?.status === 'failed' ? queued.error : undefined;
  const shown = uploading ? state.preview : uploaded && uploaded.over === imageUrl ? uploaded.url : imageUrl;
  const imageClass = uploading || queued ? `${styles.image} ${styles.pending}` : styles.image;

  return (
    <div className={styles.root} role="group" aria-labelledby={titleId}>
      <p id={titleId} className={styles.title}>
        {label}
      </p>
      <div className={styles.frame} aria-busy={uploading || undefined}>
        {!uploading && queuedFile ? (
          <BlobImage blob={queuedFile.blob} alt={label} className={imageClass} />
        ) : shown ? (
          <img className={imageClass} src={shown} alt={label} />
        ) : (
          <span className={styles.empty}>
            <ImageOff aria-hidden size={24} />
            <Trans>No image yet</Trans>
          </span>
        )}
        {uploading && <LoaderCircle className={styles.spinner} aria-hidden size={28} />}
        {waiting && !uploading && <CloudUpload className={styles.spinner} aria-hidden size={28} />}
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
          disabled={disabled || uploading}
          onChange={choose}
        />
        <Button variant="secondary" busy={uploading} disabled={disabled} onClick={() => input.current?.click()}>
          <ImageUp aria-hidden size={18} />
          {shown && !uploading ? <Trans>Replace image</Trans> : <Trans>Choose image</Trans>}
        </Button>
        <span className={styles.types}>
          <Trans>JPEG, PNG, WebP, GIF or AVIF</Trans>
        </span>
      </div>
      <p id={statusId} className={styles.status} role="status">
        {uploading && <Trans>Uploading…</Trans>}
        {!uploading && waiting && <Trans>Kept on this device; it is uploaded when the connection returns.</Trans>}
        {!uploading && !queued && state.step === 'done' && <Trans>Image uploaded.</Trans>}
      </p>
      {!online && !queued && (
        <p className={styles.offline}>
          <WifiOff aria-hidden size={18} />
          <Trans>You are offline: an image you choose is kept on this device and uploaded when you are back online.</Trans>
        </p>
      )}
      {!uploading && refused && <UploadFailure message={refused.message} status={refused.status} details={refused} />}
      {(state.step === 'noRoom' || state.step === 'failed') && <UploadProblemNote problem={state} />}
    </div>
  );
}
