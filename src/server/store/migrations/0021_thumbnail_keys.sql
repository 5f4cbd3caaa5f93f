-- A record's picture is copied as its thumbnail's key (its own where it has none), so the lists of
-- dishes, slides and posts load small files (content/media-links.ts, ADR 036). The copies made
-- before are the pictures' own: made again, with each table's own triggers off, since no one
-- changed the records (no revision, no version, no change heard by a device or a webhook).
DO $$
DECLARE
  copy record;
BEGIN
  FOR copy IN SELECT * FROM (VALUES
    ('gastro_items', 'media_id', 'image_key'),
    ('hero_slides', 'media_id', 'image_key'),
    ('gallery_slides', 'media_id', 'image_key'),
    ('posts', 'cover_media_id', 'cover_key'),
    ('seo', 'og_image_media_id', 'og_image_key')
  ) AS copies (tab, reference, key) LOOP
    EXECUTE format('ALTER TABLE %I DISABLE TRIGGER USER', copy.tab);
    EXECUTE format(
      'UPDATE %I AS r SET %I = coalesce(m.thumb_key, m.storage_key) FROM media AS m WHERE m.id = r.%I AND m.website_id = r.website_id',
      copy.tab, copy.key, copy.reference
    );
    EXECUTE format('ALTER TABLE %I ENABLE TRIGGER USER', copy.tab);
  END LOOP;
END $$;
