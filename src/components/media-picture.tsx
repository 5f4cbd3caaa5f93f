import { media } from '../contract/resources/cms';
import { useQueuedUpload } from '../db/use-queued-uploads';
import { QueuedFile } from './queued-file';

interface MediaPictureProps {
  /** The picture's id in the media library, if there is one. */
  id: string | null;
  /** Where the server serves it (its thumbnail); null when the server's copy names none yet. */
  url: string | null;
  alt: string;
  className?: string;
}

/**
 * A picture of the media library: from the server where it is there, else from this device while
 * its upload waits (a photo taken offline, which a dish saved meanwhile already names); nothing
 * when neither has it.
 */
export function MediaPicture({ id, url, alt, className }: MediaPictureProps) {
  const waiting = useQueuedUpload(media.name, url ? null : id);
  if (url) return <img className={className} src={url} alt={alt} loading="lazy" decoding="async" />;
  return waiting ? <QueuedFile seq={waiting.seq!} alt={alt} className={className} /> : null;
}
