import { i18n } from '@lingui/core';
import { actionPath, call } from '../api/action';
import { ApiError } from '../api/request';
import type { ActionArgs, ActionData, AnyAction } from '../contract/action';
import { messages } from '../contract/messages';
import { uuidv7 } from '../contract/uuid';
import { enqueueAction } from './outbox';
import { requestSync } from './sync';

/** How a queueable action went: answered by the server, or kept on the device to send later. */
export type Sent<A extends AnyAction> = { queued: false; data: ActionData<A>; message?: string } | { queued: true };

const unanswered = (error: unknown) => error instanceof ApiError && error.status === 0;

/**
 * Calls a queueable action, or keeps it in the outbox when the device is offline or the call went
 * unanswered: the replay sends it with the same Idempotency-Key, so a call that did reach the
 * server is not done twice. `title` names what it was done to in the sync panel.
 */
export async function sendOrQueue<A extends AnyAction>(action: A, args: ActionArgs<A>, title = ''): Promise<Sent<A>> {
  if (!action.queueable) throw new Error(`${action.name} is not queueable`);
  const idempotencyKey = uuidv7();
  if (typeof navigator === 'undefined' || navigator.onLine !== false) {
    try {
      return { queued: false, ...(await call(action, args, { idempotencyKey })) };
    } catch (error) {
      if (!unanswered(error)) throw error;
    }
  }
  await enqueueAction({
    resource: `action:${action.name}`,
    entityId: idempotencyKey,
    idempotencyKey,
    method: action.method,
    path: actionPath(action, args),
    body: args.body as Record<string, unknown> | undefined,
    label: { item: i18n._(action.queueable.label), title },
    fallback: i18n._(action.failed ?? messages.requestFailed),
  });
  void requestSync();
  return { queued: true };
}
