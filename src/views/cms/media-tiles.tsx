import { Trans, useLingui } from '@lingui/react/macro';
import { CloudUpload, ExternalLink, FileText, LoaderCircle, Pencil, Trash2, TriangleAlert } from 'lucide-react';
import { memo } from 'react';
import { FormDialog } from '../../components/form-dialog';
import { Button } from '../../components/form/button';
import formStyles from '../../components/form/form.module.css';
import { QueuedFile } from '../../components/queued-file';
import { UploadFailure } from '../../components/upload-failure';
import type { OutboxEntry } from '../../db/database';
import type { Row } from '../../db/resource-store';
import { resolve } from '../../db/sync';
import { refusalText } from '../../db/view';
import resourceStyles from '../resource/resource.module.css';
import styles from './media.module.css';

// The media library's tiles and the dialogs a tile opens (media.tsx lays them out).

/** A file being uploaded from this screen right now (online), until the server answers. */
export interface Sending {
  id: string;
  name: string;
  preview: string | null;
}

/** 1.5 MB, 320 kB: a file's size in the interface language. */
function useFileSize() {
  const { i18n } = useLingui();
  return (bytes: number) =>
    bytes >= 1024 * 1024
      ? i18n.number(bytes / 1024 / 1024, { style: 'unit', unit: 'megabyte', maximumFractionDigits: 1 })
      : i18n.number(Math.max(1, Math.round(bytes / 1024)), { style: 'unit', unit: 'kilobyte' });
}

export type Position = { 'aria-setsize': number; 'aria-posinset': number };

/** A file of the library: its thumbnail (a document's icon) and its name; a change not sent yet is marked. */
export const MediaTile = memo(function MediaTile({ row, size, position, onOpen }: { row: Row; size: number; position: Position; onOpen: () => void }) {
  const { t } = useLingui();
  const name = String(row.fileName);
  const thumb = typeof row.thumbUrl === 'string' ? row.thumbUrl : null;
  return (
    <div role="listitem" {...position} className={styles.tile}>
      <button type="button" className={styles.open} onClick={onOpen} aria-label={t`Open ${name}`}>
        <span className={styles.frame} style={{ height: size }}>
          {thumb ? <img className={styles.thumb} src={thumb} alt={String(row.alt ?? '')} loading="lazy" decoding="async" /> : <FileText aria-hidden size={32} />}
          {row.pending && (
            <span className={styles.badge}>
              <CloudUpload aria-hidden size={14} />
              <Trans>Not sent yet</Trans>
            </span>
          )}
        </span>
        <span className={styles.name}>{name}</span>
      </button>
    </div>
  );
});

/** A file this screen is uploading right now, shown from the device. */
export function SendingTile({ sending, size, position }: { sending: Sending; size: number; position: Position }) {
  return (
    <div role="listitem" {...position} className={styles.tile} aria-busy="true">
      <span className={styles.frame} style={{ height: size }}>
        {sending.preview ? <img className={`${styles.thumb} ${styles.waiting}`} src={sending.preview} alt="" /> : <FileText aria-hidden size={32} />}
        <LoaderCircle className={styles.spinner} aria-hidden size={24} />
        <span className={styles.badge}>
          <Trans>Uploading…</Trans>
        </span>
      </span>
      <span className={styles.name}>{sending.name}</span>
    </div>
  );
}

/** A file waiting in the outbox to be uploaded (or refused there), shown from the device. */
export function QueuedTile({ entry, size, position, onOpen }: { entry: OutboxEntry; size: number; position: Position; onOpen: () => void }) {
  const { t } = useLingui();
  const name = entry.label.title;
  const refused = entry.status === 'failed';
  return (
    <div role="listitem" {...position} className={styles.tile} data-status={entry.status}>
      <button type="button" className={styles.open} onClick={onOpen} aria-label={t`Open ${name}`}>
        <span className={styles.frame} style={{ height: size }}>
          <QueuedFile seq={entry.seq!} alt="" className={`${styles.thumb} ${styles.waiting}`} />
          <span className={styles.badge}>
            {refused ? <TriangleAlert aria-hidden size={14} /> : <CloudUpload aria-hidden size={14} />}
            {refused ? <Trans>Not uploaded</Trans> : <Trans>Waiting to upload</Trans>}
          </span>
        </span>
        <span className={styles.name}>{name}</span>
      </button>
    </div>
  );
}

/** A queued upload's details: why it waits, or why the server refused it, with retry and discard. */
export function QueuedDetails({ entry, onClose }: { entry: OutboxEntry; onClose: () => void }) {
  const { i18n } = useLingui();
  const act = (action: (seq: number) => Promise<void>) => async () => {
    await action(entry.seq!);
    onClose();
  };
  return (
    <FormDialog title={entry.label.title} onRequestClose={onClose}>
      <div className={styles.preview}>
        <QueuedFile seq={entry.seq!} alt={entry.label.title} className={styles.previewImage} />
      </div>
      {entry.status === 'failed' ? (
        <UploadFailure message={refusalText(entry, i18n)} status={entry.error?.status ?? 0} details={entry.error} />
      ) : (
        <p className={resourceStyles.muted}>
          <Trans>Kept on this device; it is uploaded when the connection returns.</Trans>
        </p>
      )}
      <div className={styles.actions}>
        {entry.status === 'failed' && (
          <Button variant="secondary" onClick={act(resolve.retry)}>
            <Trans>Retry</Trans>
          </Button>
        )}
        <Button variant="danger" onClick={act(resolve.discard)}>
          <Trans>Discard</Trans>
        </Button>
      </div>
    </FormDialog>
  );
}

interface MediaDetailsProps {
  row: Row;
  may: { update: boolean; delete: boolean };
  deleting: boolean;
  onClose: () => void;
  onEdit: () => void;
  onDelete: () => void;
}

/** One file: its picture, what the server knows of it, and edit (alt, description, folder) and delete. */
export function MediaDetails({ row, may, deleting, onClose, onEdit, onDelete }: MediaDetailsProps) {
  const { t, i18n } = useLingui();
  const size = useFileSize();
  const name = String(row.fileName);
  const url = typeof row.url === 'string' ? row.url : null;
  const image = String(row.mimetype).startsWith('image/');
  const facts: [string, string][] = [
    [t`Type`, String(row.mimetype)],
    [t`Size`, size(Number(row.size))],
    ...(row.width && row.height ? [[t`Dimensions`, `${String(row.width)} × ${String(row.height)}`] as [string, string]] : []),
    [t`Folder`, String(row.folder || '—')],
    [t`Alternative text`, String(row.alt || '—')],
    [t`Description`, String(row.description || '—')],
    [t`Uploaded`, i18n.date(new Date(String(row.createdAt)), { dateStyle: 'medium', timeStyle: 'short' })],
  ];
  return (
    <FormDialog title={name} onRequestClose={onClose}>
      <div className={styles.preview}>
        {image && url ? <img className={styles.previewImage} src={url} alt={String(row.alt ?? '')} /> : <FileText aria-hidden size={48} />}
      </div>
      <dl className={resourceStyles.details}>
        {facts.map(([label, value]) => (
          <div key={label} className={resourceStyles.detail}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <div className={styles.actions}>
        {url && (
          <a className={`${formStyles.button} ${formStyles.secondary}`} href={url} target="_blank" rel="noopener noreferrer">
            <ExternalLink aria-hidden size={18} />
            <Trans>Open file</Trans>
          </a>
        )}
        {may.update && (
          <Button variant="secondary" onClick={onEdit}>
            <Pencil aria-hidden size={18} />
            <Trans>Edit details</Trans>
          </Button>
        )}
        {may.delete && (
          <Button variant="danger" busy={deleting} onClick={onDelete}>
            <Trash2 aria-hidden size={18} />
            <Trans>Delete</Trans>
          </Button>
        )}
      </div>
    </FormDialog>
  );
}
