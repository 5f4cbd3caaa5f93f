import { Trans, useLingui } from '@lingui/react/macro';
import { Plus, Trash2 } from 'lucide-react';
import { useId, useState } from 'react';
import { MODULE } from '../../contract/modules';
import { CMS_MODULES, type CmsModule } from '../../contract/permissions';
import type { Prices, ServiceFeature, ServiceModule } from '../../contract/resources/services';
import { Button } from '../../components/form/button';
import formStyles from '../../components/form/form.module.css';
import { TextField } from '../../components/form/text-field';
import type { FieldInputProps } from './field-kinds';
import { moneyText, parseMoney } from './money';
import type { Field } from './screen';
import styles from './service-fields.module.css';

// The service form's own kinds (spec §7 "Other"): prices per partner type, features and modules.
// One chunk, loaded only by forms that show one of them (field-kinds.tsx, lazyScreen).

/** What a money input holds for the form: cents, nothing (left empty), or the text while it is no amount. */
type Amount = number | undefined | string;

interface MoneyInputProps {
  label: string;
  value: Amount;
  onChange: (value: Amount) => void;
  /** Shown in an empty input: what leaving it empty means. */
  placeholder?: string;
  /** The form's or the server's complaint, when the text is an amount. */
  error?: string | null;
}

/**
 * An amount typed in the currency's unit ("49.00" or "49,00") and handed on as cents. Text that
 * is no amount is handed on as it is, so the form's check refuses it, and is marked here.
 */
export function MoneyInput({ label, value, onChange, placeholder, error = null }: MoneyInputProps) {
  const { t, i18n } = useLingui();
  const shown = (amount: Amount) => (typeof amount === 'number' ? moneyText(amount, i18n.locale) : (amount ?? ''));
  // What is typed stays as typed; a value from elsewhere (the record loaded, theirs taken) replaces it.
  const [typed, setTyped] = useState({ text: shown(value), of: value });
  if (typed.of !== value) setTyped({ text: shown(value), of: value });
  const invalid = typeof value === 'string';

  const change = (text: string) => {
    const next: Amount = text.trim() === '' ? undefined : (parseMoney(text) ?? text);
    setTyped({ text, of: next });
    onChange(next);
  };

  return (
    <TextField
      label={label}
      inputMode="decimal"
      autoComplete="off"
      value={typed.text}
      placeholder={placeholder}
      error={invalid ? t`Enter an amount such as 49.00` : error}
      onChange={(event) => change(event.target.value)}
    />
  );
}

type PriceDraft = Partial<Record<keyof Prices, Amount>>;

/** The three partner types' prices; agency and reseller may stay empty: they then pay the standard price. */
function PriceInputs({ value, onChange }: { value: PriceDraft; onChange: (value: PriceDraft) => void }) {
  const { t, i18n } = useLingui();
  const standard = typeof value.standard === 'number' ? moneyText(value.standard, i18n.locale) : '';
  const set = (type: keyof Prices, amount: Amount) => {
    const { [type]: _, ...others } = value;
    onChange(amount === undefined ? others : { ...others, [type]: amount });
  };
  const asStandard = standard ? t`As standard (${standard})` : t`As standard`;
  return (
    <div className={styles.prices}>
      <MoneyInput label={t`Standard`} value={value.standard} onChange={(amount) => set('standard', amount)} />
      <MoneyInput label={t`Agency`} value={value.agency} placeholder={asStandard} onChange={(amount) => set('agency', amount)} />
      <MoneyInput label={t`Reseller`} value={value.reseller} placeholder={asStandard} onChange={(amount) => set('reseller', amount)} />
    </div>
  );
}

const pricesOf = (value: unknown): PriceDraft => (value && typeof value === 'object' ? (value as PriceDraft) : {});

function FieldError({ id, error }: { id: string; error: string | null }) {
  return error ? (
    <p id={id} className={formStyles.error}>
      {error}
    </p>
  ) : null;
}

/** `{ standard, agency?, reseller? }` in cents. */
export function PricesField({ label, value, error, onChange }: FieldInputProps<Field & { kind: 'prices' }>) {
  const id = useId();
  return (
    <fieldset className={styles.group} aria-describedby={error ? `${id}-error` : undefined}>
      <legend className={formStyles.label}>{label}</legend>
      <PriceInputs value={pricesOf(value)} onChange={onChange} />
      <FieldError id={`${id}-error`} error={error} />
    </fieldset>
  );
}

type FeatureDraft = Omit<ServiceFeature, 'prices'> & { prices: PriceDraft };

/** A key from an English name: "Table booking" → "table-booking". */
export const keyOf = (name: string) =>
  name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 50);

/** A service's features: each a key (its part of the item id), an English and a German name, and prices. */
export function ServiceFeaturesField({ label, value, error, onChange }: FieldInputProps<Field & { kind: 'serviceFeatures' }>) {
  const { t } = useLingui();
  const id = useId();
  const features = Array.isArray(value) ? (value as FeatureDraft[]) : [];
  const update = (index: number, feature: FeatureDraft) => onChange(features.map((old, at) => (at === index ? feature : old)));
  const rename = (index: number, en: string) => {
    const feature = features[index]!;
    // The key follows the English name until someone types a key of their own.
    const key = feature.key === '' || feature.key === keyOf(feature.name.en) ? keyOf(en) : feature.key;
    update(index, { ...feature, key, name: { ...feature.name, en } });
  };

  return (
    <fieldset className={styles.group} aria-describedby={error ? `${id}-error` : undefined}>
      <legend className={formStyles.label}>{label}</legend>
      {features.length === 0 && (
        <p className={formStyles.hint}>
          <Trans>None yet.</Trans>
        </p>
      )}
      {features.map((feature, index) => {
        const number = index + 1;
        const title = feature.name.en || t`Feature ${number}`;
        return (
          <fieldset key={index} className={styles.entry}>
            <legend className={styles.entryTitle}>{title}</legend>
            <div className={styles.row}>
              <TextField label={t`Name (English)`} value={feature.name.en} onChange={(event) => rename(index, event.target.value)} />
              <TextField
                label={t`Name (German)`}
                value={feature.name.de}
                onChange={(event) => update(index, { ...feature, name: { ...feature.name, de: event.target.value } })}
              />
              <TextField
                label={t`Key`}
                className={styles.mono}
                value={feature.key}
                autoCapitalize="none"
                spellCheck={false}
                onChange={(event) => update(index, { ...feature, key: event.target.value })}
              />
            </div>
            <PriceInputs value={feature.prices} onChange={(prices) => update(index, { ...feature, prices })} />
            <Button variant="secondary" className={styles.remove} onClick={() => onChange(features.filter((_, at) => at !== index))}>
              <Trash2 aria-hidden size={18} />
              {t`Remove ${title}`}
            </Button>
          </fieldset>
        );
      })}
      <Button variant="secondary" className={styles.add} onClick={() => onChange([...features, { key: '', name: { en: '', de: '' }, prices: {} }])}>
        <Plus aria-hidden size={18} />
        <Trans>Add feature</Trans>
      </Button>
      <FieldError id={`${id}-error`} error={error} />
    </fieldset>
  );
}

type ModuleDraft = Omit<ServiceModule, 'prices'> & { prices: PriceDraft };

/** The CMS modules a service brings, each at its own prices: a checkbox per module, its prices once chosen. */
export function ServiceModulesField({ label, value, error, onChange }: FieldInputProps<Field & { kind: 'serviceModules' }>) {
  const { i18n } = useLingui();
  const id = useId();
  const chosen = Array.isArray(value) ? (value as ModuleDraft[]) : [];
  const entryOf = (module: CmsModule) => chosen.find((entry) => entry.module === module);
  // Kept in the modules' own order, whatever order they were chosen in.
  const set = (module: CmsModule, entry: ModuleDraft | null) =>
    onChange(CMS_MODULES.flatMap((other) => (other === module ? (entry ? [entry] : []) : chosen.filter((old) => old.module === other))));

  return (
    <fieldset className={styles.group} aria-describedby={error ? `${id}-error` : undefined}>
      <legend className={formStyles.label}>{label}</legend>
      {CMS_MODULES.map((module) => {
        const entry = entryOf(module);
        const name = i18n._(MODULE[module].name);
        return (
          <div key={module} className={entry ? styles.entry : styles.module}>
            <label className={formStyles.check}>
              <input type="checkbox" checked={entry !== undefined} onChange={(event) => set(module, event.target.checked ? { module, prices: { standard: 0 } } : null)} />
              <span>{name}</span>
            </label>
            {entry && <PriceInputs value={entry.prices} onChange={(prices) => set(module, { module, prices })} />}
          </div>
        );
      })}
      <FieldError id={`${id}-error`} error={error} />
    </fieldset>
  );
}
