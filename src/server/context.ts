import type { RegisteredEntries } from './crud/context';
import type { ReadSession } from './auth/sessions';
import type { ChangeFeed } from './live/changes';
import type { Memos } from './live/memo';
import type { FileStorage } from './files/storage';
import type { Mailer } from './mail/mailer';
import type { Store } from './store/open';
import type { WebhookTiming } from './webhooks/sender';

/** What route plugins share: injected, so tests control time, mail and the store. */
export interface ServerContext {
  store: Store;
  mailer: Mailer;
  clock: () => Date;
  /** APP_SECRET: keys the PIN hashes and, later, the encryption of stored secrets. */
  secret: string;
  /** Uploaded files (files/storage.ts). */
  files: FileStorage;
  /** PUBLIC_URL: where links in mails lead. */
  publicUrl: string;
  /** SMTP_ALLOW_PRIVATE: websites' mail servers may be at private addresses (routes/contact-forms.ts). */
  smtpAllowPrivate: boolean;
  /** WEBHOOKS_ALLOW_PRIVATE: webhooks may be sent to private addresses (routes/webhooks.ts). */
  webhooksAllowPrivate: boolean;
  /** Every committed change, as this server hears it (live/changes.ts): devices' streams and the webhook sender listen. */
  changes: ChangeFeed;
  /** What the server remembers of a website's rows until they change (live/memo.ts): the delivery API's key lookups and tags. */
  memos: Memos;
  /** Who a bearer token is, remembered until sessions, users or team roles change (auth/principals.ts). */
  readSession: ReadSession;
  /** The registry entries whose routes the app has, by table (filled as they are registered). */
  entries: RegisteredEntries;
  /** How often contact form mails that failed are looked at again; tests pass a short one. */
  formMailRetryMs?: number;
  /** How webhooks are scheduled: tests pass short rounds and their own back-off. */
  webhookTiming?: Partial<WebhookTiming>;
}
