import { pages } from '../../contract/resources/cms';
import { composeHooks } from '../crud';
import { cmsPages } from '../store/schema';
import { richTextFields } from './sanitize';
import { derivedSlug } from './slugs';

/** A website's pages (spec §7 CMS pages): a slug made from the title when none is given, content sanitized. */
export const pageHooks = composeHooks(derivedSlug({ entry: pages, table: cmsPages, from: 'title', fallback: 'page' }), richTextFields('content'));
