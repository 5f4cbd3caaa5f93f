import { useLingui } from '@lingui/react/macro';
import { useActorRef, useSelector } from '@xstate/react';
import { Check, ChevronDown, Globe, LoaderCircle } from 'lucide-react';
import { useId, useRef } from 'react';
import { toInterfaceLanguage } from '../contract/languages';
import { languageMachine } from '../machines/language.machine';
import styles from './language-switcher.module.css';
import { useDismiss } from './use-dismiss';

/** The header's language button (spec §2): shows the interface language and offers the others. */
export function LanguageSwitcher() {
  const { t, i18n } = useLingui();
  const actor = useActorRef(languageMachine, { input: { current: toInterfaceLanguage(i18n.locale) } });
  const { current, languages, choice } = useSelector(actor, (snapshot) => snapshot.context);
  const loading = useSelector(actor, (snapshot) => snapshot.matches('loading'));
  const open = useSelector(actor, (snapshot) => snapshot.matches({ ready: 'open' }) || snapshot.matches('changing'));
  const busy = useSelector(actor, (snapshot) => snapshot.matches('changing') || snapshot.matches('reloading'));
  const root = useRef<HTMLDivElement>(null);
  const menuId = useId();
  useDismiss(root, open, () => actor.send({ type: 'menu.close' }));

  return (
    <div ref={root} className={styles.root}>
      <button
        type="button"
        className={styles.trigger}
        aria-label={t`Language`}
        aria-expanded={open}
        aria-controls={menuId}
        aria-busy={loading || busy}
        disabled={loading}
        onClick={() => actor.send({ type: 'menu.toggle' })}
      >
        <Globe aria-hidden size={18} />
        <span className={styles.code}>{current}</span>
        <ChevronDown aria-hidden size={16} className={styles.chevron} />
      </button>
      <ul id={menuId} className={styles.menu} hidden={!open}>
        {languages.map(({ code, name }) => (
          <li key={code}>
            <button
              type="button"
              className={styles.option}
              lang={code}
              aria-current={code === current || undefined}
              aria-disabled={busy || undefined}
              onClick={() => actor.send({ type: 'language.select', code })}
            >
              <span className={styles.name}>{name}</span>
              {code === choice ? (
                <LoaderCircle className={styles.spinner} aria-hidden size={18} />
              ) : (
                code === current && <Check aria-hidden size={18} />
              )}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
