import { msg } from '@lingui/core/macro';
import type { Choice } from '../resource/screen';

/** A page's or post's status (contract ContentStatus), in words. */
export const contentStatusChoices: readonly Choice[] = [
  { value: 'draft', label: msg`Draft` },
  { value: 'published', label: msg`Published` },
];
