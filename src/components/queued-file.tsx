import { FileText } from 'lucide-react';
import { useEntryFile } from '../db/use-queued-uploads';
import { BlobImage } from './blob-image';

interface QueuedFileProps {
  /** The upload entry whose file is shown. */
  seq: number;
  /** The picture's text: the file's name. */
  alt: string;
  className?: string;
}

/** A file waiting in the outbox, shown from the device: the picture itself, or a document's icon. */
export function QueuedFile({ seq, alt, className }: QueuedFileProps) {
  const file = useEntryFile(seq);
  if (file?.blob.type.startsWith('image/')) return <BlobImage blob={file.blob} alt={alt} className={className} />;
  return <FileText className={className} role="img" aria-label={alt} />;
}
