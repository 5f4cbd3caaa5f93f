import { i18n, type MessageDescriptor } from '@lingui/core';
import { resourceMessages, type Resource } from '../contract/resource';

/** One of a resource's spec §8 messages in the interface language ("Failed to update category"): a call's fallback too. */
export function resourceText(resource: Resource, key: keyof ReturnType<typeof resourceMessages>): string {
  const [descriptor, values] = resourceMessages(resource, (d: MessageDescriptor) => i18n._(d))[key];
  // Not `i18n._({ ...descriptor, values })`: the catalog extractor trips over a spread literal there.
  return i18n._(descriptor.id, values, { message: descriptor.message });
}
