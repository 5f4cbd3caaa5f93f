import { i18n } from '@lingui/core';
import { itemPath } from '../api/paths';
import { resourceText } from '../api/resource-text';
import { fillPath, parentIdOf, type Resource } from '../contract/resource';
import { entityKey, type NewEntry } from './outbox';
import type { Mutation } from './resource-store';

/* What a mutation sends, described without sending it: the page, the outbox and the service worker share this (no window, no session). */

/** A mutation as the wire wants it (DESIGN §4); the outbox adds Idempotency-Key and If-Match when it sends it. */
export interface MutationRequest {
  method: 'POST' | 'PUT' | 'DELETE';
  path: string;
  /** Where the entity lives, also for a create. */
  itemPath: string;
  body?: Record<string, unknown>;
  /** The version the change is based on: sent as If-Match. Null for a create. */
  baseVersion: number | null;
}

/** Where a new record is posted. */
const createPath = (resource: Resource) => fillPath(resource.paths.create ?? resource.paths.list ?? resource.paths.item, {});

/** The request a mutation makes: POST with the client's `_id`, PUT with the changed fields, DELETE; the base version of both. */
export function describeMutation(resource: Resource, mutation: Mutation): MutationRequest {
  const item = itemPath(resource, mutation.id);
  switch (mutation.kind) {
    case 'create':
      return { method: 'POST', path: createPath(resource), itemPath: item, body: { ...mutation.values, _id: mutation.id }, baseVersion: null };
    case 'update':
      return { method: 'PUT', path: item, itemPath: item, body: mutation.values, baseVersion: mutation.baseVersion };
    case 'delete':
      return { method: 'DELETE', path: item, itemPath: item, baseVersion: mutation.baseVersion };
  }
}

/**
 * The records a change points at (its reference fields, one id or a list of them) and, for a
 * create, the record its path names as its parent (a dish's menu made offline): their creates, if
 * still unsent, must reach the server first, and a refused one fails this change too.
 */
function referencedKeys(resource: Resource, mutation: Mutation): string[] | undefined {
  if (mutation.kind === 'delete') return undefined;
  const keys = Object.entries(resource.references ?? {}).flatMap(([field, target]) => {
    const value = mutation.values[field];
    const ids = (Array.isArray(value) ? value : [value]).filter((id): id is string => typeof id === 'string' && id !== '');
    return target ? ids.map((id) => entityKey(target, id)) : [];
  });
  const parent = parentIdOf(resource);
  if (mutation.kind === 'create' && parent && resource.parent) keys.push(entityKey(resource.parent.resource, parent));
  return keys.length > 0 ? keys : undefined;
}

/** The name a change is shown under (the sync panel): the record's title, or none; never its id. */
export function labelTitle(resource: Pick<Resource, 'title'>, row: Record<string, unknown> | null | undefined): string {
  const title = row?.[resource.title];
  return typeof title === 'string' ? title : '';
}

/** The outbox entry of a mutation: its request plus what the sync panel shows (`title`: the record's name, labelTitle). */
export function outboxEntry(resource: Resource, mutation: Mutation, title: string): NewEntry {
  const request = describeMutation(resource, mutation);
  return {
    resource: resource.name,
    entityId: mutation.id,
    kind: mutation.kind,
    method: request.method,
    path: request.path,
    itemPath: request.itemPath,
    body: request.body,
    baseVersion: request.baseVersion,
    label: { item: i18n._(resource.label.one), title },
    fallback: resourceText(resource, `${mutation.kind}Failed`),
    dependsOn: referencedKeys(resource, mutation),
    scope: resource.boundKey,
  };
}
