import type { MessageDescriptor } from '@lingui/core';
import { z } from 'zod/mini';
import type { Policy } from './permissions';

type Schema = z.core.$ZodType;

/** The path parameters of a call on one website. */
export const WebsiteParams = z.object({ websiteId: z.string() });

/**
 * A call beyond a resource's CRUD (loading the default allergens, testing SMTP, toggling an API
 * key, signing in…), declared once and used by both sides: the server registers it with its
 * policy and schemas (`server/action.ts`), the OpenAPI document names it by `name` and `summary`,
 * and the client calls it with typed input and answer (`api/action.ts`).
 */
export interface Action<
  P extends Schema | undefined = Schema | undefined,
  Q extends Schema | undefined = Schema | undefined,
  B extends Schema | undefined = Schema | undefined,
  R extends Schema = Schema,
> {
  /** The operationId and the client's name for it: camelCase, unique. */
  name: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** With `:param` segments; the website is `:websiteId`. */
  path: string;
  policy: Policy;
  /** One line for the API's reader (OpenAPI `summary`). */
  summary: string;
  params?: P;
  query?: Q;
  /** A JSON body; a multipart upload says `multipart` instead and parses its own parts. */
  body?: B;
  multipart?: true;
  /** The envelope's `data`. */
  answer: R;
  /** The status of a success; 200 unless the call makes a record (201). */
  status?: 200 | 201;
  /** What a failure says when the server names no reason (spec §8's fixed messages). */
  failed?: MessageDescriptor;
  /**
   * It changes data and may wait on the device while offline: the client puts it in the outbox
   * (db/queued-action.ts), which sends it with its Idempotency-Key once the connection is back;
   * `label` is what the sync panel calls it meanwhile.
   */
  queueable?: { label: MessageDescriptor };
}

export type AnyAction = Action<Schema | undefined, Schema | undefined, Schema | undefined, Schema>;

// An optional property's type includes undefined: what was declared is the rest of it.
type Declared<S> = Exclude<S, undefined>;
type Out<S> = [Declared<S>] extends [never] ? undefined : z.output<Declared<S> & Schema>;
type In<S> = [Declared<S>] extends [never] ? undefined : z.input<Declared<S> & Schema>;
type Has<S> = [Declared<S>] extends [never] ? false : true;

/** What a call is given: its path parameters, query and body, each as its schema parses it. */
export interface ActionInput<A extends AnyAction> {
  params: Out<A['params']>;
  query: Out<A['query']>;
  body: Out<A['body']>;
}

/** What the client passes: the same, before parsing (a query's numbers may still be strings). */
export type ActionArgs<A extends AnyAction> = (Has<A['params']> extends true ? { params: In<A['params']> } : { params?: undefined }) &
  (Has<A['query']> extends true ? { query?: In<A['query']> } : { query?: undefined }) &
  (Has<A['body']> extends true ? { body: In<A['body']> } : { body?: undefined });

/** The answer's data as the server sends it (its schema's input: the serializer's side). */
export type ActionAnswer<A extends AnyAction> = z.input<A['answer']>;
/** The answer's data as the client reads it. */
export type ActionData<A extends AnyAction> = z.output<A['answer']>;

export function defineAction<P extends Schema | undefined = undefined, Q extends Schema | undefined = undefined, B extends Schema | undefined = undefined, R extends Schema = Schema>(
  action: Action<P, Q, B, R>,
): Action<P, Q, B, R> {
  return Object.freeze(action);
}
