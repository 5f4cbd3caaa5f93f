import type { MessageDescriptor } from '@lingui/core';

/** What a page is given: its route's title. */
export interface PageProps {
  title: MessageDescriptor;
}
