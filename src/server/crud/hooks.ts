import { and, type SQL } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Row, Tx, Values } from './types';

/** What a hook knows besides the values: the transaction it runs in, and the request (its website: `request.website`). */
export interface HookContext {
  tx: Tx;
  request: FastifyRequest;
  /** Values this one answer shows and nothing stores as they are: a new API key, once. */
  reveal: Values;
}

/**
 * What an entry does beyond storing its fields (ADR 009): hash or encrypt a secret field, compute
 * a slug, check a rule across rows, mail an invitation, clean up files after a delete, mask what
 * a reader sees. Each runs inside the request's transaction, so a hook that throws leaves nothing
 * half-written: an `after…` hook refuses a change by throwing after seeing it.
 */
export interface ResourceHooks {
  beforeCreate?(values: Values, context: HookContext): Values | Promise<Values>;
  afterCreate?(row: Row, context: HookContext): void | Promise<void>;
  beforeUpdate?(changes: Values, context: HookContext): Values | Promise<Values>;
  afterUpdate?(row: Row, context: HookContext): void | Promise<void>;
  afterDelete?(row: Row, context: HookContext): void | Promise<void>;
  present?(entity: Values, row: Row, request: FastifyRequest): Values;
  /** Narrows a list by the entry's own query options (`?mimetype=image`, `?category=`): equality filters need no hook. */
  narrow?(request: FastifyRequest): SQL | undefined;
}

/** Several hooks of one entry as one (a slide's picture link and its own rules): each step runs in the order given. */
export function composeHooks(...all: ResourceHooks[]): ResourceHooks {
  const chain =
    (step: 'beforeCreate' | 'beforeUpdate') =>
    async (values: Values, context: HookContext): Promise<Values> => {
      let result = values;
      for (const hooks of all) result = (await hooks[step]?.(result, context)) ?? result;
      return result;
    };
  const each =
    (step: 'afterCreate' | 'afterUpdate' | 'afterDelete') =>
    async (row: Row, context: HookContext): Promise<void> => {
      for (const hooks of all) await hooks[step]?.(row, context);
    };
  const has = (step: keyof ResourceHooks) => all.some((hooks) => hooks[step]);
  return {
    ...(has('beforeCreate') && { beforeCreate: chain('beforeCreate') }),
    ...(has('beforeUpdate') && { beforeUpdate: chain('beforeUpdate') }),
    ...(has('afterCreate') && { afterCreate: each('afterCreate') }),
    ...(has('afterUpdate') && { afterUpdate: each('afterUpdate') }),
    ...(has('afterDelete') && { afterDelete: each('afterDelete') }),
    ...(has('present') && { present: (entity: Values, row: Row, request: FastifyRequest) => all.reduce((shown, hooks) => hooks.present?.(shown, row, request) ?? shown, entity) }),
    ...(has('narrow') && { narrow: (request: FastifyRequest) => and(...all.map((hooks) => hooks.narrow?.(request))) }),
  };
}
