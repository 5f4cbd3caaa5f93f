import type { PgTable } from 'drizzle-orm/pg-core';
import type { FastifyInstance } from 'fastify';
import type { Resource } from '../../contract/resource';
import * as cms from '../../contract/resources/cms';
import type { ServerContext } from '../context';
import { mediaLink } from '../content/media-links';
import { registerResource } from '../crud';
import * as tables from '../store/schema';

/** A registry entry and its table. */
type Entry = readonly [Resource, PgTable];

/** A slider module (spec §7 Hero / Gallery sliders) on the generic CRUD: its sliders, and their slides, each showing a picture of the media library. */
const sliderRoutes =
  ([sliders, sliderTable]: Entry, [slides, slideTable]: Entry) =>
  async (app: FastifyInstance, ctx: ServerContext) => {
    registerResource(app, ctx, sliders, sliderTable);
    registerResource(app, ctx, slides, slideTable, mediaLink({ idField: 'mediaId', keyColumn: 'imageKey', urlField: 'thumbUrl' }), { parentTable: sliderTable });
  };

export const heroSliderRoutes = sliderRoutes([cms.heroSliders, tables.heroSliders], [cms.heroSlides, tables.heroSlides]);
export const gallerySliderRoutes = sliderRoutes([cms.gallerySliders, tables.gallerySliders], [cms.gallerySlides, tables.gallerySlides]);
