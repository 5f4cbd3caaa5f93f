import { Trans, useLingui } from '@lingui/react/macro';
import { useActorRef, useSelector } from '@xstate/react';
import { Camera, CloudUpload, ImageOff, ImageUp, Images, LoaderCircle, X } from 'lucide-react';
import { useEffect, useEffectEvent, useId, useMemo, useRef, useState, type ChangeEvent, type ReactNode } from 'react';
import { actionPath } from '../../api/action';
import { useSession } from '../../api/session';
import { ApiError } from '../../api/send';
import { IMAGE_TYPES } from '../../api/upload';
import { Button } from '../../components/form/button';
import formStyles from '../../components/form/form.module.css';
import { QueuedFile } from '../../components/queued-file';
import { UploadFailure, UploadProblemNote, uploadProblem, type UploadProblem } from '../../components/upload-failure';
import { messages } from '../../contract/messages';
import { allows } from '../../contract/permissions';
import { media, uploadMedia } from '../../contract/resources/cms';
import { uuidv7 } from '../../contract/uuid';
import { accept } from '../../db/device-store';
import { uploadOrQueue } from '../../db/upload-or-queue';
import { useQueuedUpload } from '../../db/use-queued-uploads';
import { editorMachine } from '../../machines/editor.machine';
import { storeActors } from '../../machines/store-actors';
import type { FieldInputProps } from './field-kinds';
import styles from './picture-field.module.css';
import { PictureLibrary } from './picture-library';
import type { Field } from './screen';
import { useResourceStore } from './store-context';
import { useBoundResource } from './use-bound-resource';

type Props = FieldInputProps<Field & { kind: 'picture' }>;

type State =
  | { step: 'idle' }
  | { step: 'uploading'; preview: string }
  | UploadProblem;

/** A picture of the library by its id, read as a record page reads its record: this device's copy first, then the server's. */
function LibraryPicture({ library, id, alt }: { library: typeof media; id: string; alt: string }) {
  const store = useResourceStore();
  const machine = useMemo(() => editorMachine.provide({ actors: storeActors(store) }), [store]);
  const actor = useActorRef(machine, { input: { resource: library, id, blank: {} } });
  const row = useSelector(actor, (snapshot) => snapshot.context.loaded);
  const missing = useSelector(actor, (snapshot) => snapshot.matches('loadFailed'));
  if (row) return <img className={styles.image} src={String(row.thumbUrl ?? row.url)} alt={alt} />;
  return missing ? (
    <span className={styles.empty}>
      <ImageOff aria-hidden size={24} />
      <Trans>Picture not available</Trans>
    </span>
  ) : null;
}

/**
 * A record's picture from the website's media library (a dish's, a slide's, a post's cover, the
 * Open Graph picture): shows the one chosen, and takes a new one with the camera or from the
 * device's files, or chooses one of the library's. A new photo goes to the library under an id
 * chosen here, which the field then holds: online it is uploaded at once; offline it is kept on
 * the device and shown from there, and the record saved meanwhile waits for it in the outbox
 * (its `dependsOn`), so after reconnecting the photo arrives first, then the record, each once.
 */
export function PictureField({ spec, label, value, error, onChange, onBusy }: Props) {
  const { t, i18n } = useLingui();
  const { user } = useSession();
  const library = useBoundResource(media);
  // A role may edit dishes without adding to the library, or reading it: a photo it took would only be refused later.
  const may = { add: allows(library.access.create, user), browse: allows(library.access.list, user) };
  const id = typeof value === 'string' && value !== '' ? value : null;
  const waiting = useQueuedUpload(media.name, id);
  const [state, setState] = useState<State>({ step: 'idle' });
  // The server's thumbnail of the photo uploaded from here, which it may not be able to read back offline.
  const [uploaded, setUploaded] = useState<{ id: string; url: string | null } | null>(null);
  const [choosing, setChoosing] = useState(false);
  const camera = useRef<HTMLInputElement>(null);
  const files = useRef<HTMLInputElement>(null);
  const titleId = useId();
  const statusId = useId();

  // While a photo is kept or uploaded the record must wait for it: saved now, it would not name it.
  const taking = state.step === 'uploading';
  const tellBusy = useEffectEvent((isBusy: boolean) => onBusy?.(isBusy));
  useEffect(() => {
    tellBusy(taking);
    return () => tellBusy(false);
  }, [taking]);

  // The photo shown while it uploads is let go once the field shows something else.
  useEffect(() => {
    if (state.step !== 'uploading') return;
    const { preview } = state;
    return () => URL.revokeObjectURL(preview);
  }, [state]);

  async function take(file: File) {
    setState({ step: 'uploading', preview: URL.createObjectURL(file) });
    const chosen = uuidv7();
    try {
      // A phone may offer a type the server does not take (HEIC): said now, not after it waited offline.
      if (file.type && !(IMAGE_TYPES as readonly string[]).includes(file.type)) throw new ApiError(i18n._(messages.imageTypeRefused), 0);
      const outcome = await uploadOrQueue(
        {
          resource: media.name,
          scope: library.boundKey,
          entityId: chosen,
          // The library is bound to its website alone: its key is the website's id.
          path: actionPath(uploadMedia, { params: { websiteId: library.boundKey } }),
          fields: { compressImages: 'true' },
          file: { field: 'file', blob: file, name: file.name },
          label: { item: i18n._(media.label.one), title: file.name },
          fallback: i18n._(messages.uploadFailed),
        },
        { entity: library.entity },
      );
      if (outcome.status === 'done') {
        const { entity } = outcome;
        // Only the device's copy: the picture is on the server whether or not it could be kept here.
        await accept(library, entity).catch(() => undefined);
        setUploaded({ id: entity._id, url: typeof entity.thumbUrl === 'string' ? entity.thumbUrl : null });
        onChange(entity._id);
      } else {
        onChange(chosen);
      }
      setState({ step: 'idle' });
    } catch (problem) {
      setState(uploadProblem(problem, i18n));
    }
  }

  const pick = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // The same photo chosen again (after a refusal) is a change too.
    event.target.value = '';
    if (file) void take(file);
  };

  const choose = (next: string | null) => {
    setState({ step: 'idle' });
    setChoosing(false);
    onChange(next ?? (spec.optional ? null : ''));
  };

  const uploading = state.step === 'uploading';
  const refused = waiting?.status === 'failed' ? waiting.error : undefined;
  let shown: ReactNode = null;
  if (uploading) shown = <img className={`${styles.image} ${styles.pending}`} src={state.preview} alt={label} />;
  else if (id === null)
    shown = (
      <span className={styles.empty}>
        <ImageOff aria-hidden size={24} />
        <Trans>No picture yet</Trans>
      </span>
    );
  else if (waiting) shown = <QueuedFile seq={waiting.seq!} alt={label} className={`${styles.image} ${styles.pending}`} />;
  else if (waiting === null && uploaded?.id === id && uploaded.url) shown = <img className={styles.image} src={uploaded.url} alt={label} />;
  else if (waiting === null) shown = <LibraryPicture key={id} library={library} id={id} alt={label} />;

  return (
    <div className={styles.root} role="group" aria-labelledby={titleId} aria-describedby={statusId}>
      <p id={titleId} className={styles.title}>
        {label}
      </p>
      <div className={styles.frame} aria-busy={uploading || waiting === undefined || undefined}>
        {shown}
        {uploading && <LoaderCircle className={styles.spinner} aria-hidden size={28} />}
        {!uploading && waiting?.status === 'pending' && <CloudUpload className={styles.badge} aria-hidden size={24} />}
      </div>
      <p id={statusId} className={styles.status} role="status">
        {uploading && <Trans>Uploading…</Trans>}
        {!uploading && waiting?.status === 'pending' && <Trans>Kept on this device; it is uploaded when the connection returns.</Trans>}
      </p>
      {may.add && (
        <>
          <input ref={camera} className={styles.input} type="file" accept="image/*" capture="environment" aria-label={t`Take a photo for ${label}`} tabIndex={-1} onChange={pick} />
          <input ref={files} className={styles.input} type="file" accept={IMAGE_TYPES.join(',')} aria-label={t`Choose a file for ${label}`} tabIndex={-1} onChange={pick} />
        </>
      )}
      <div className={styles.actions}>
        {may.add && (
          <>
            <Button variant="secondary" disabled={uploading} onClick={() => camera.current?.click()}>
              <Camera aria-hidden size={18} />
              <Trans>Take a photo</Trans>
            </Button>
            <Button variant="secondary" disabled={uploading} onClick={() => files.current?.click()}>
              <ImageUp aria-hidden size={18} />
              <Trans>Choose a file</Trans>
            </Button>
          </>
        )}
        {may.browse && (
          <Button variant="secondary" disabled={uploading} onClick={() => setChoosing(true)}>
            <Images aria-hidden size={18} />
            <Trans>From the media library</Trans>
          </Button>
        )}
        {spec.optional && id !== null && (
          <Button variant="secondary" disabled={uploading} onClick={() => choose(null)}>
            <X aria-hidden size={18} />
            <Trans>Remove</Trans>
          </Button>
        )}
      </div>
      {(state.step === 'noRoom' || state.step === 'failed') && <UploadProblemNote problem={state} />}
      {!uploading && refused && <UploadFailure message={refused.message} status={refused.status} details={refused} />}
      {error && <p className={formStyles.error}>{error}</p>}
      {choosing && <PictureLibrary library={library} onChoose={choose} onClose={() => setChoosing(false)} />}
    </div>
  );
}
