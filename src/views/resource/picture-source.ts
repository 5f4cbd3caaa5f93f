import { media } from '../../contract/resources/cms';
import type { Row } from '../../db/resource-store';
import type { OptionSource } from './screen';

/** The records a picture field chooses from: the website's media library, each named by its text for the blind, else its file's name. */
export const pictureSource = { resource: media, label: (row: Row) => String(row.alt || row.fileName || '') } satisfies OptionSource;
