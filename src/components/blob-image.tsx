import { useEffect, useRef } from 'react';

interface BlobImageProps {
  /** A picture kept on the device (a file waiting in the outbox). */
  blob: Blob;
  alt: string;
  className?: string;
}

/** A picture shown from a blob through an object URL, let go when the blob changes or the picture goes. */
export function BlobImage({ blob, alt, className }: BlobImageProps) {
  const image = useRef<HTMLImageElement>(null);
  useEffect(() => {
    const element = image.current;
    if (!element) return;
    const url = URL.createObjectURL(blob);
    element.src = url;
    return () => {
      element.removeAttribute('src');
      URL.revokeObjectURL(url);
    };
  }, [blob]);
  return <img ref={image} className={className} alt={alt} />;
}
