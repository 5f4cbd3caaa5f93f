import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { useParams } from 'wouter';
import { CMS, screenRoutes } from '../cms-modules';
import { postCategories, posts } from '../../contract/resources/cms';
import { SectionTabs } from '../../components/section-tabs';
import { screenPages } from '../resource/screen-pages';
import type { ResourceScreen } from '../resource/screen';
import { CmsBackLink } from './cms-back-link';
import { contentStatusChoices } from './content-status';

// Spec §2 /cms/{id}/posts, /posts/new, /posts/edit/{postId}, /posts/categories; spec §7 Posts.
// Posts and their categories are two tabs of one section; a post's cover comes from the media
// library. Saving shows the server's own message (spec §8), as every form here does.

const categorySource = { resource: postCategories };
const slugHint = msg`The last part of the address, such as summer-menu; left empty, it is made from the title`;

export const postsScreen = {
  resource: posts,
  columns: [
    { key: 'title', label: msg`Title`, sortable: true },
    { key: 'coverThumbUrl', label: msg`Cover`, format: 'image', media: 'coverMediaId' },
    { key: 'categoryId', label: msg`Category`, format: 'lookup', source: categorySource },
    { key: 'status', label: msg`Status`, format: 'choice', choices: contentStatusChoices },
    { key: 'publishedAt', label: msg`Published`, format: 'date', sortable: true },
  ],
  fields: [
    { name: 'title', label: msg`Title`, kind: 'text' },
    { name: 'slug', label: msg`Slug`, kind: 'text', hint: slugHint },
    { name: 'status', label: msg`Status`, kind: 'choice', choices: contentStatusChoices },
    { name: 'publishedAt', label: msg`Publication date`, kind: 'datetime', hint: msg`Left empty, a published post gets the moment it is published; a later date holds it back until then` },
    { name: 'categoryId', label: msg`Category`, kind: 'select', source: categorySource, optional: true },
    { name: 'coverMediaId', label: msg`Cover picture`, kind: 'picture', optional: true },
    { name: 'excerpt', label: msg`Excerpt`, kind: 'textarea' },
    { name: 'content', label: msg`Content`, kind: 'richText' },
  ],
  // Spec §7 names the category filter `category`, not the field.
  filters: [
    { key: 'status', label: msg`Status`, choices: contentStatusChoices },
    { key: 'category', label: msg`Category`, source: categorySource },
  ],
  routes: screenRoutes(CMS.posts, { list: 'list', create: 'new', edit: 'edit' }),
} satisfies ResourceScreen;

export const postCategoriesScreen = {
  resource: postCategories,
  columns: [
    { key: 'name', label: msg`Name`, sortable: true },
    { key: 'slug', label: msg`Slug` },
    { key: 'description', label: msg`Description` },
  ],
  fields: [
    { name: 'name', label: msg`Name`, kind: 'text' },
    { name: 'slug', label: msg`Slug`, kind: 'text', hint: msg`The last part of the category’s address; left empty, it is made from the name` },
    { name: 'description', label: msg`Description`, kind: 'textarea' },
  ],
} satisfies ResourceScreen;

/** Back to the CMS, and the section's two tabs: the posts and their categories. */
function PostsSection() {
  const { t } = useLingui();
  const { websiteId = '' } = useParams<{ websiteId: string }>();
  return (
    <>
      <CmsBackLink />
      <SectionTabs
        label={t`Blog section`}
        tabs={[
          { href: `/cms/${websiteId}/posts`, label: t`Posts` },
          { href: `/cms/${websiteId}/posts/categories`, label: t`Categories` },
        ]}
      />
    </>
  );
}

const section = <PostsSection />;
const postPages = screenPages(postsScreen, section);

export const PostsPage = postPages.List;
export const PostNewPage = postPages.New;
export const PostEditPage = postPages.Edit;
export const PostCategoriesPage = screenPages(postCategoriesScreen, section).List;
