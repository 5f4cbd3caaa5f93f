import { msg } from '@lingui/core/macro';
import { CMS, screenRoutes } from '../cms-modules';
import { gallerySliders, gallerySlides, heroSliders, heroSlides } from '../../contract/resources/cms';
import { screenPages } from '../resource/screen-pages';
import type { Choice, ResourceScreen } from '../resource/screen';
import { CmsBackLink } from './cms-back-link';

// Spec §2 /cms/{id}/hero-slider and /gallery-slider with their new and edit routes; spec §7 Hero
// sliders, Gallery sliders. Each slider's slides are listed under its form, in the order a person
// sets (ADR 012); their pictures come from the media library.

const statusChoices: readonly Choice[] = [
  { value: 'active', label: msg`Active` },
  { value: 'inactive', label: msg`Inactive` },
];
const status = { key: 'status', label: msg`Status`, format: 'choice', choices: statusChoices } as const;
const updated = { key: 'updatedAt', label: msg`Updated`, format: 'date', sortable: true } as const;

export const heroSlidersScreen = {
  resource: heroSliders,
  columns: [{ key: 'name', label: msg`Name`, sortable: true }, status, updated],
  fields: [
    { name: 'name', label: msg`Name`, kind: 'text' },
    { name: 'status', label: msg`Status`, kind: 'choice', choices: statusChoices },
    { name: 'autoplay', label: msg`Play on its own`, kind: 'checkbox' },
    { name: 'interval', label: msg`Seconds per slide`, kind: 'integer' },
  ],
  filters: [{ key: 'status', label: msg`Status`, choices: statusChoices }],
  routes: screenRoutes(CMS.heroSliders, { list: 'list', create: 'new', edit: 'edit' }),
} satisfies ResourceScreen;

export const heroSlidesScreen = {
  resource: heroSlides,
  columns: [
    { key: 'title', label: msg`Title` },
    { key: 'thumbUrl', label: msg`Picture`, format: 'image', media: 'mediaId' },
    { key: 'buttonLabel', label: msg`Button` },
  ],
  fields: [
    { name: 'title', label: msg`Title`, kind: 'text' },
    { name: 'subtitle', label: msg`Subtitle`, kind: 'textarea' },
    { name: 'mediaId', label: msg`Picture`, kind: 'picture', optional: true },
    { name: 'buttonLabel', label: msg`Button text`, kind: 'text' },
    { name: 'buttonUrl', label: msg`Button address`, kind: 'text', hint: msg`https://…, mailto:…, or a path on the website such as /menu` },
  ],
} satisfies ResourceScreen;

export const gallerySlidersScreen = {
  resource: gallerySliders,
  columns: [{ key: 'name', label: msg`Name`, sortable: true }, { key: 'description', label: msg`Description` }, status, updated],
  fields: [
    { name: 'name', label: msg`Name`, kind: 'text' },
    { name: 'description', label: msg`Description`, kind: 'textarea' },
    { name: 'status', label: msg`Status`, kind: 'choice', choices: statusChoices },
  ],
  filters: [{ key: 'status', label: msg`Status`, choices: statusChoices }],
  routes: screenRoutes(CMS.gallerySliders, { list: 'list', create: 'new', edit: 'edit' }),
} satisfies ResourceScreen;

export const gallerySlidesScreen = {
  resource: gallerySlides,
  columns: [
    { key: 'caption', label: msg`Caption` },
    { key: 'thumbUrl', label: msg`Picture`, format: 'image', media: 'mediaId' },
  ],
  fields: [
    { name: 'mediaId', label: msg`Picture`, kind: 'picture' },
    { name: 'caption', label: msg`Caption`, kind: 'text' },
  ],
} satisfies ResourceScreen;

const hero = screenPages(heroSlidersScreen, <CmsBackLink />, { screen: heroSlidesScreen, title: msg`Slides` });
const gallery = screenPages(gallerySlidersScreen, <CmsBackLink />, { screen: gallerySlidesScreen, title: msg`Pictures` });

export const HeroSlidersPage = hero.List;
export const HeroSliderNewPage = hero.New;
export const HeroSliderEditPage = hero.Edit;
export const GallerySlidersPage = gallery.List;
export const GallerySliderNewPage = gallery.New;
export const GallerySliderEditPage = gallery.Edit;
