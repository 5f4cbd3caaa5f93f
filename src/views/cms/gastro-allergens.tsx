import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Eraser, ListPlus } from 'lucide-react';
import { useState } from 'react';
import { call } from '../../api/action';
import { toast } from '../../machines/feedback';
import { useSession } from '../../api/session';
import { Button } from '../../components/form/button';
import { messages } from '../../contract/messages';
import { allows } from '../../contract/permissions';
import { boundTo, MAX_PAGE_SIZE, type Resource } from '../../contract/resource';
import { cleanupAllergens, DEFAULT_ALLERGENS, gastroAllergens, gastroItems, loadDefaultAllergens } from '../../contract/resources/gastro';
import { uuidv7 } from '../../contract/uuid';
import type { WireRow } from '../../db/database';
import { accept, keepList } from '../../db/device-store';
import type { Row } from '../../db/resource-store';
import { sendOrQueue } from '../../db/queued-action';
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

interface AllergenToolsProps {
  /** The website's allergens (gastroAllergens bound to the website). */
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
 * "Clean up": the server drops deleted allergens from every dish; offline it waits in the outbox
 * (a queueable action) and runs on the server once the device is back, over every dish then.
 */
export function AllergenTools({ allergens, websiteId, onChanged }: AllergenToolsProps) {
  const { t, i18n } = useLingui();
  const { user } = useSession();
  const store = useResourceStore();
  const legend = useListPage(allergens, legendQuery(allergens)).page;
  const [busy, setBusy] = useState<'defaults' | 'cleanup' | null>(null);
  const online = useOnline();
  const mayCreate = allows(allergens.access.create, user);
  const mayClean = allows(gastroItems.access.update, user);
  if (!mayCreate && !mayClean) return null;

  async function loadDefaults() {
    setBusy('defaults');
    try {
      if (online) {
        const answer = await call(loadDefaultAllergens, { params: { websiteId } });
        await keepList(allergens, legendQuery(allergens), answer.data as WireRow[]);
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
      const answer = await sendOrQueue(cleanupAllergens, { params: { websiteId } });
      if (answer.queued) {
        toast.info(t`Saved on this device; the allergens are removed from the dishes when you are online.`);
        return;
      }
      // The dishes it changed, as they are now: a menu read on this device shows them so.
      for (const item of answer.data.items) await accept(boundTo(gastroItems, { menuId: item.menuId }), item as WireRow);
      const { id: cleaned, message } = messages.allergensCleanedUp;
      toast.success(answer.message ?? i18n._(cleaned, { count: answer.data.changed }, { message }));
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
        <Button variant="secondary" busy={busy === 'cleanup'} disabled={busy !== null} onClick={() => void cleanUp()}>
          <Eraser aria-hidden size={18} />
          <Trans>Remove deleted allergens from dishes</Trans>
        </Button>
      )}
    </div>
  );
}
