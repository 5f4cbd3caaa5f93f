import { currencyOf } from '../../components/intl-formats';
import { Trans, useLingui } from '@lingui/react/macro';
import { useActorRef, useSelector } from '@xstate/react';
import { Pencil } from 'lucide-react';
import { useEffect, useEffectEvent, useMemo, useRef, useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { Button } from '../../components/form/button';
import { FormAlert } from '../../components/form/form-alert';
import { useFieldErrors } from '../../components/form/use-field-errors';
import { FormDialog } from '../../components/form-dialog';
import type { gastroItems } from '../../contract/resources/gastro';
import type { Row } from '../../db/resource-store';
import { editedFields, editorMachine } from '../../machines/editor.machine';
import { storeActors } from '../../machines/store-actors';
import resourceStyles from '../resource/resource.module.css';
import { MoneyField } from '../resource/money-field';
import { ConflictAlert } from '../resource/resource-form';
import { useResourceStore } from '../resource/store-context';
import { useLiveRecord } from '../resource/use-live-record';
import styles from './gastro.module.css';

interface QuickEditProps {
  /** The dish as the menu shows it. */
  item: Row;
  /** The menu's dishes (gastroItems bound to the menu). */
  resource: typeof gastroItems;
  /** Where the dish's whole form is. */
  editHref: string;
  onClose: () => void;
  /** Saved or kept on this device: the dish as it is now. */
  onSaved: (row: Row) => void;
}

/**
 * A dish's price and availability, a tap away from the menu: the switch saves as soon as it is
 * flipped, the price with its button. Both go through the editor machine, like every change (the
 * outbox, offline too); the sheet stays open, on the dish as saved, for the next change.
 */
export function QuickEdit({ item, resource, editHref, onClose, onSaved }: QuickEditProps) {
  const [round, setRound] = useState(0);
  const done = (row: Row) => {
    onSaved(row);
    setRound((n) => n + 1);
  };
  return (
    <FormDialog title={String(item.name)} onRequestClose={onClose}>
      <QuickEditor key={round} item={item} resource={resource} editHref={editHref} onDone={done} />
    </FormDialog>
  );
}

/** The form's fields: nothing else of the dish is sent. */
const BLANK = { price: 0, available: true };

function QuickEditor({ item, resource, editHref, onDone }: Omit<QuickEditProps, 'onClose' | 'onSaved'> & { onDone: (row: Row) => void }) {
  const { t } = useLingui();
  const store = useResourceStore();
  const machine = useMemo(() => editorMachine.provide({ actors: storeActors(store) }), [store]);
  const actor = useActorRef(machine, { input: { resource, id: item.id, blank: BLANK } });
  useLiveRecord(actor);
  const snapshot = useSelector(actor, (state) => state);
  const { context } = snapshot;
  const { errorOf } = useFieldErrors(context.fieldErrors);
  const loading = snapshot.matches('loading');
  const saving = snapshot.matches('saving');
  const conflict = snapshot.matches('conflict');
  const done = snapshot.status === 'done';
  const finish = useEffectEvent(() => {
    const { saved, values } = actor.getSnapshot().context;
    // Kept on this device (offline): the dish shows what was saved, marked as not synced yet.
    onDone(saved ?? ({ ...item, ...values, pending: true } as Row));
  });
  useEffect(() => {
    if (done) finish();
  }, [done]);

  // The price is what this sheet is for: typed at once (its old amount selected, to be typed over),
  // so a changed price is the dish's tap, the typing and the save.
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (loading) return;
    const price = form.current?.querySelector<HTMLInputElement>('input[inputmode="decimal"]');
    price?.focus();
    price?.select();
  }, [loading]);

  const values = loading ? item : context.values;
  const locked = loading || saving || conflict || done;
  const currency = currencyOf(item);
  const change = (name: string, value: unknown) => actor.send({ type: 'field.change', name, value });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    actor.send({ type: 'record.save' });
  };

  return (
    <form ref={form} className={resourceStyles.form} onSubmit={submit} noValidate>
      {context.error && !conflict && <FormAlert>{context.error}</FormAlert>}
      {conflict && <ConflictAlert actor={actor} />}
      <label className={styles.switch}>
        <input
          type="checkbox"
          role="switch"
          checked={values.available !== false}
          disabled={locked}
          onChange={(event) => {
            change('available', event.target.checked);
            actor.send({ type: 'record.save' });
          }}
        />
        <span>
          <Trans>Available</Trans>
        </span>
      </label>
      <fieldset className={resourceStyles.fields} disabled={locked}>
        <MoneyField label={t`Price (${currency})`} value={values.price} error={errorOf('price')} onChange={(value) => change('price', value)} />
      </fieldset>
      <div className={resourceStyles.actions}>
        <Link href={editHref} className={styles.toolLink}>
          <Pencil aria-hidden size={16} />
          <Trans>All details</Trans>
        </Link>
        <Button type="submit" busy={saving} disabled={locked || !editedFields(context).includes('price')}>
          {saving ? <Trans>Saving…</Trans> : <Trans>Save price</Trans>}
        </Button>
      </div>
    </form>
  );
}
