/**
 * Room on the device for a file kept until it can be sent (an upload made offline). A file is what
 * a person cannot type again, so the browser is asked to keep this site's data under storage
 * pressure, and a file that would not fit is refused before it is queued, never lost after.
 */

/** Besides the file: the entry, the cache growing meanwhile, and the estimate's own slack. */
export const SPARE_BYTES = 5 * 1024 * 1024;

/** The device has no room for the file: nothing was queued. */
export class NoRoomError extends Error {
  override name = 'NoRoomError';
  constructor(
    /** Bytes the file needs. */
    readonly needed: number,
    /** Bytes the browser says are left to this site. */
    readonly available: number,
  ) {
    super(`No room on this device for ${needed} bytes (${available} left)`);
  }
}

/** navigator.storage as pages have it (a worker's has no persist()), each part possibly missing. */
interface StorageLike {
  persisted?: () => Promise<boolean>;
  persist?: () => Promise<boolean>;
  estimate?: () => Promise<StorageEstimate>;
}

/**
 * Asks for persistent storage (once granted, the browser keeps it) and throws NoRoomError when the
 * site's quota leaves less than the file and SPARE_BYTES. A browser that tells neither is trusted.
 */
export async function ensureRoom(bytes: number): Promise<void> {
  const storage = typeof navigator === 'undefined' ? undefined : (navigator as { storage?: StorageLike }).storage;
  if (!storage) return;
  if (storage.persisted && storage.persist && !(await storage.persisted().catch(() => true))) await storage.persist().catch(() => false);
  const estimate = storage.estimate ? await storage.estimate().catch(() => null) : null;
  if (estimate?.quota === undefined || estimate.usage === undefined) return;
  const available = Math.max(0, estimate.quota - estimate.usage);
  if (available < bytes + SPARE_BYTES) throw new NoRoomError(bytes, available);
}
