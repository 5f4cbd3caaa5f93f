import { Trans, useLingui } from '@lingui/react/macro';
import { useSelector } from '@xstate/react';
import { CloudUpload } from 'lucide-react';
import { FormDialog } from '../../components/form-dialog';
import formStyles from '../../components/form/form.module.css';
import { QueuedFile } from '../../components/queued-file';
import type { media } from '../../contract/resources/cms';
import { useQueuedPictures } from '../../db/use-queued-uploads';
import styles from './picture-field.module.css';
import { pictureSource } from './picture-source';
import { useResourceStore } from './store-context';
import { useListActor } from './use-list-page';
import { Loading } from './loading';

/**
 * The media library's first page as its own screen reads it (media.tsx), so the copy this device
 * keeps of it is offered offline too; its documents are left out here.
 */
const LIBRARY_QUERY = { limit: 100, sortBy: 'createdAt', sortOrder: 'desc' } as const;

interface PictureLibraryProps {
  /** The media library of the form's website (boundTo). */
  library: typeof media;
  onChoose: (id: string) => void;
  onClose: () => void;
}

/**
 * The media library's pictures to choose one from, searched on the server as one types: first the
 * photos this device keeps until they can be uploaded (taken offline, here or in the library),
 * then the library's, as every list reads them (this device's copy first).
 */
export function PictureLibrary({ library, onChoose, onClose }: PictureLibraryProps) {
  const { t } = useLingui();
  const actor = useListActor(useResourceStore(), library, LIBRARY_QUERY);
  const page = useSelector(actor, (snapshot) => snapshot.context.page);
  const searchText = useSelector(actor, (snapshot) => snapshot.context.searchText);
  // Offline, with no copy of the library on this device: only its photos waiting here are offered.
  const unreachable = useSelector(actor, (snapshot) => snapshot.matches({ data: 'failed' })) && page === null;
  const needle = searchText.trim().toLowerCase();
  const queued = useQueuedPictures(library.name, library.boundKey).filter((entry) => entry.label.title.toLowerCase().includes(needle));
  const rows = (page?.items ?? []).filter((row) => String(row.mimetype).startsWith('image/'));
  const none = page !== null && queued.length === 0 && rows.length === 0;

  return (
    <FormDialog title={t`Choose from the media library`} onRequestClose={onClose}>
      <div className={styles.library}>
        <label className={formStyles.field}>
          <span className={formStyles.label}>
            <Trans>Search the media library</Trans>
          </span>
          <input className={formStyles.input} type="search" value={searchText} onChange={(event) => actor.send({ type: 'list.search', search: event.target.value })} />
        </label>
        {page === null && !unreachable && (
          <Loading />
        )}
        {unreachable && (
          <p className={styles.muted}>
            <Trans>The media library’s pictures show here once you are online.</Trans>
          </p>
        )}
        {none && <p className={styles.muted}>{needle ? <Trans>No pictures match.</Trans> : <Trans>No pictures in the media library yet.</Trans>}</p>}
        <ul className={styles.grid} aria-label={t`Pictures`}>
          {queued.map((entry) => (
            <li key={`queued ${entry.seq}`}>
              <button type="button" className={styles.choice} onClick={() => onChoose(entry.entityId)}>
                <QueuedFile seq={entry.seq!} alt="" className={styles.choiceImage} />
                <span className={styles.choiceName}>{entry.label.title}</span>
                <span className={styles.choiceNote}>
                  <CloudUpload aria-hidden size={14} />
                  <Trans>Waiting to upload</Trans>
                </span>
              </button>
            </li>
          ))}
          {rows.map((row) => (
            <li key={row.id}>
              <button type="button" className={styles.choice} onClick={() => onChoose(row.id)}>
                <img className={styles.choiceImage} src={String(row.thumbUrl ?? row.url)} alt="" loading="lazy" decoding="async" />
                <span className={styles.choiceName}>{pictureSource.label(row)}</span>
              </button>
            </li>
          ))}
        </ul>
      </div>
    </FormDialog>
  );
}
