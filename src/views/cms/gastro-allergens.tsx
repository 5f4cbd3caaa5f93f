import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Eraser, ListPlus } from 'lucide-react';
import { useId, useState } from 'react';
import { z } from 'zod/mini';
import { resourceText } from '../../api/resource-text';
import { request } from '../../api/request';
import { toast } from '../../machines/feedback';
import { useSession } from '../../api/session';
import { Button } from '../../components/form/button';
import { messages } from '../../contract/messages';
import { allows } from '../../contract/permissions';
import { fillPath, inScope, MAX_PAGE_SIZE, type Resource } from '../../contract/resource';
import { CleanupAllergensResult, DEFAULT_ALLERGENS, GASTRO_PATHS, gastroAllergens, gastroItems } from '../../contract/resources/gastro';
import { uuidv7 } from '../../contract/uuid';
import type { WireRow } from '../../db/database';
import type { Row } from '../../db/resource-store';
import { accept, keepList } from '../../db/store';
import { useOnline } from '../../db/use-sync-status';
import { initialListQuery } from '../../machines/list.machine';
import { reasonOf } from '../../machines/reason';
import styles from './gastro.module.css';
import { useResourceStore } from '../resource/store-context';
import { useListPage } from '../resource/use-list-page';

/**
 * The website's whole legend, as the menu view, a dish's allergen choices and this page read it
 * (one query, so one cached page: what one of them read, the others show offline).
 */
export const legendQuery = (allergens: Resource) => initialListQuery(allergens, { limit: MAX_PAGE_SIZE });

/** An allergen's name in a language: its translation there (`content`), else its name. */
export function allergenName(row: Pick<Row, 'name' | 'content'> | Record<string, unknown>, language: string): string {
  const content = (row.content ?? {}) as Record<string, { name?: string } | undefined>;
  return content[language]?.name || String(row.name ?? '');
}

const Legend = z.array(gastroAllergens.entity);

interface AllergenToolsProps {
  /** The website's allergens (gastroAllergens in the website's scope). */
  allergens: typeof gastroAllergens;
  websiteId: string;
  /** Allergens were made or dishes cleaned: the list should be read again. */
  onChanged: () => void;
}

/**
 * The allergens' two calls beyond CRUD (spec §7). "Load default allergens": online, the server
 * makes the letters the website lacks (idempotent) and answers the whole legend, kept as this
 * device's copy; offline, each default letter this device does not show yet becomes an ordinary
 * create in the outbox, so nothing typed offline waits for a connection and nothing is lost.
 * "Clean up": the server drops deleted allergens from every dish; it needs the server, so offline
 * it waits (a dish edited offline is sent as it is, and a later clean-up still finds it).
 */
export function AllergenTools({ allergens, websiteId, onChanged }: AllergenToolsProps) {
  const { t, i18n } = useLingui();
  const { user } = useSession();
  const store = useResourceStore();
  const legend = useListPage(allergens, legendQuery(allergens));
  const [busy, setBusy] = useState<'defaults' | 'cleanup' | null>(null);
  const online = useOnline();
  const noteId = useId();
  const mayCreate = allows(allergens.access.create, user);
  const mayClean = allows(gastroItems.access.update, user);
  if (!mayCreate && !mayClean) return null;

  async function loadDefaults() {
    setBusy('defaults');
    try {
      if (online) {
        const answer = await request<unknown>(fillPath(GASTRO_PATHS.defaultAllergens, { websiteId }), {
          method: 'POST',
          headers: { 'Idempotency-Key': uuidv7() },
          fallback: resourceText(allergens, 'createFailed'),
        });
        const rows = Legend.safeParse(answer.data);
        if (rows.success) await keepList(allergens, legendQuery(allergens), rows.data as WireRow[]);
        toast.success(answer.message ?? t`Default allergens loaded`);
      } else {
        const shown = new Set((legend?.items ?? []).map((row) => String(row.identifier ?? '').toUpperCase()));
        const missing = DEFAULT_ALLERGENS.filter((allergen) => !shown.has(allergen.identifier));
        for (const { identifier, en, de } of missing) {
          await store.submit(allergens, { kind: 'create', id: uuidv7(), values: { identifier, name: en, content: { de: { name: de } } } });
        }
        const count = missing.length;
        toast.info(
          count === 0
            ? t`All default allergens are already there`
            : plural(count, { one: '# allergen saved on this device; it will be sent when you are online.', other: '# allergens saved on this device; they will be sent when you are online.' }),
        );
      }
      onChanged();
    } catch (error) {
      toast.error(reasonOf(error));
    } finally {
      setBusy(null);
    }
  }

  async function cleanUp() {
    setBusy('cleanup');
    try {
      const answer = await request<unknown>(fillPath(GASTRO_PATHS.cleanupAllergens, { websiteId }), {
        method: 'POST',
        headers: { 'Idempotency-Key': uuidv7() },
        fallback: messages.cleanupAllergensFailed,
      });
      const result = CleanupAllergensResult.safeParse(answer.data);
      // The dishes it changed, as they are now: a menu read on this device shows them so.
      if (result.success) for (const item of result.data.items) await accept(inScope(gastroItems, { menuId: item.menuId }), item as WireRow);
      const { id: cleaned, message } = messages.allergensCleanedUp;
      toast.success(answer.message ?? i18n._(cleaned, { count: result.success ? result.data.changed : 0 }, { message }));
      onChanged();
    } catch (error) {
      toast.error(reasonOf(error));
    } finally {
      setBusy(null);
    }
  }

  return (
    <div className={styles.tools}>
      {mayCreate && (
        <Button variant="secondary" busy={busy === 'defaults'} disabled={busy !== null} onClick={() => void loadDefaults()}>
          <ListPlus aria-hidden size={18} />
          <Trans>Load default allergens</Trans>
        </Button>
      )}
      {mayClean && (
        <Button variant="secondary" busy={busy === 'cleanup'} disabled={busy !== null || !online} aria-describedby={online ? undefined : noteId} onClick={() => void cleanUp()}>
          <Eraser aria-hidden size={18} />
          <Trans>Remove deleted allergens from dishes</Trans>
        </Button>
      )}
      {mayClean && !online && (
        <p id={noteId} className={styles.note}>
          <Trans>Removing them needs a connection.</Trans>
        </p>
      )}
    </div>
  );
}
