import { useLingui } from '@lingui/react/macro';
import { EditorContent, useEditor, useEditorState, type Editor } from '@tiptap/react';
import { StarterKit } from '@tiptap/starter-kit';
import { Bold, Heading2, Heading3, Italic, Link, List, ListOrdered, Quote, Redo2, Undo2, type LucideIcon } from 'lucide-react';
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { z } from 'zod/mini';
import { LinkUrl } from '../../contract/resources/cms';
import { Button } from '../../components/form/button';
import formStyles from '../../components/form/form.module.css';
import type { FieldInputProps } from './field-kinds';
import styles from './rich-text-field.module.css';
import type { Field } from './screen';

interface Tool {
  label: string;
  icon: LucideIcon;
  active?: boolean;
  disabled?: boolean;
  run: () => void;
}

/** What the toolbar shows of the editor: re-read on each transaction, so pressed buttons follow the cursor. */
const toolState = ({ editor }: { editor: Editor }) => ({
  bold: editor.isActive('bold'),
  italic: editor.isActive('italic'),
  h2: editor.isActive('heading', { level: 2 }),
  h3: editor.isActive('heading', { level: 3 }),
  bullets: editor.isActive('bulletList'),
  numbers: editor.isActive('orderedList'),
  quote: editor.isActive('blockquote'),
  link: editor.isActive('link'),
  canUndo: editor.can().undo(),
  canRedo: editor.can().redo(),
});

/**
 * The toolbar's buttons as one tab stop (WAI-ARIA toolbar): arrows, Home and End move between
 * them, so a keyboard reaches the text past it in one Tab.
 */
function Toolbar({ label, tools }: { label: string; tools: readonly Tool[] }) {
  const [current, setCurrent] = useState(0);
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);
  const move = (event: KeyboardEvent) => {
    const last = tools.length - 1;
    const next = { ArrowRight: current + 1, ArrowLeft: current - 1, Home: 0, End: last }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    const at = (next + tools.length) % tools.length;
    setCurrent(at);
    buttons.current[at]?.focus();
  };
  return (
    <div role="toolbar" aria-label={label} className={styles.toolbar} onKeyDown={move}>
      {tools.map((tool, index) => (
        <button
          key={tool.label}
          ref={(button) => {
            buttons.current[index] = button;
          }}
          type="button"
          className={styles.tool}
          aria-label={tool.label}
          title={tool.label}
          aria-pressed={tool.active === undefined ? undefined : tool.active}
          // Not `disabled`: a disabled button drops out of the arrow keys' way through the toolbar.
          aria-disabled={tool.disabled || undefined}
          tabIndex={index === current ? 0 : -1}
          onFocus={() => setCurrent(index)}
          // A pointer leaves the focus in the text: the editor takes it back only a frame after the
          // click, and a key typed in between would land on the button and be lost.
          onMouseDown={(event) => event.preventDefault()}
          onClick={tool.disabled ? undefined : tool.run}
        >
          <tool.icon aria-hidden size={18} />
        </button>
      ))}
    </div>
  );
}

/** The address of a link, and whether it opens a new tab: under the toolbar while it is open. */
function LinkForm({ editor, onClose }: { editor: Editor; onClose: () => void }) {
  const { t } = useLingui();
  const attributes = editor.getAttributes('link') as { href?: string; target?: string | null };
  const [href, setHref] = useState(attributes.href ?? '');
  const [newTab, setNewTab] = useState(attributes.target === '_blank');
  const [refused, setRefused] = useState(false);
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  // Opened to type an address: the field takes the focus the button had.
  useEffect(() => input.current?.focus(), []);

  const close = () => {
    onClose();
    editor.commands.focus();
  };
  const apply = () => {
    const address = href.trim();
    const chain = editor.chain().focus().extendMarkRange('link');
    if (address === '') {
      chain.unsetLink().run();
      return onClose();
    }
    // The addresses a menu item may lead to; none that could run script (javascript:), which the server would drop anyway.
    if (!z.safeParse(LinkUrl, address).success) return setRefused(true);
    const link = { href: address, target: newTab ? '_blank' : null, rel: newTab ? 'noopener noreferrer' : null };
    // With nothing selected, the address itself becomes the linked text.
    if (editor.state.selection.empty && !editor.isActive('link')) chain.insertContent({ type: 'text', text: address, marks: [{ type: 'link', attrs: link }] }).run();
    else chain.setLink(link).run();
    onClose();
  };
  // An Enter here must not submit the record's form around the editor.
  const keys = (event: KeyboardEvent) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      apply();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      close();
    }
  };

  return (
    <div className={styles.linkForm} onKeyDown={keys}>
      <div className={formStyles.field}>
        <label className={formStyles.label} htmlFor={`${id}-href`}>
          {t`Link address`}
        </label>
        <input
          id={`${id}-href`}
          className={formStyles.input}
          type="url"
          inputMode="url"
          autoComplete="off"
          placeholder="https://…"
          value={href}
          aria-invalid={refused || undefined}
          aria-describedby={refused ? `${id}-error` : undefined}
          ref={input}
          onChange={(event) => {
            setHref(event.target.value);
            setRefused(false);
          }}
        />
        {refused && (
          <p id={`${id}-error`} className={formStyles.error}>
            {t`Use an address such as https://example.com, mailto:… or /a-page`}
          </p>
        )}
      </div>
      <label className={formStyles.check}>
        <input type="checkbox" checked={newTab} onChange={(event) => setNewTab(event.target.checked)} />
        <span>{t`Open in a new tab`}</span>
      </label>
      <div className={styles.linkActions}>
        <Button variant="secondary" onClick={close}>
          {t`Cancel`}
        </Button>
        {attributes.href && (
          <Button
            variant="secondary"
            onClick={() => {
              editor.chain().focus().extendMarkRange('link').unsetLink().run();
              onClose();
            }}
          >
            {t`Remove link`}
          </Button>
        )}
        <Button onClick={apply}>{t`Apply`}</Button>
      </div>
    </div>
  );
}

/**
 * Formatted text (a page's or post's content) in TipTap, kept as HTML; an empty editor is ''.
 * This module and TipTap are a chunk of their own, loaded only where a form shows such a field.
 */
export function RichTextField({ spec, label, value, error, onChange }: FieldInputProps<Field & { kind: 'richText' }>) {
  const { t } = useLingui();
  const id = useId();
  const html = typeof value === 'string' ? value : '';
  // The HTML this editor last reported: a value from elsewhere (their version of a conflict) is loaded into it.
  const reported = useRef(html);
  const [linking, setLinking] = useState(false);
  const errorId = error ? `${id}-error` : undefined;

  const editor = useEditor({
    extensions: [
      StarterKit.configure({
        heading: { levels: [2, 3, 4] },
        link: { openOnClick: false, autolink: true, defaultProtocol: 'https', HTMLAttributes: { target: null, rel: null } },
      }),
    ],
    content: html,
    editorProps: {
      attributes: {
        id: `${id}-text`,
        role: 'textbox',
        'aria-multiline': 'true',
        'aria-labelledby': `${id}-label`,
        ...(errorId && { 'aria-describedby': errorId, 'aria-invalid': 'true' }),
        class: styles.text!,
      },
    },
    onUpdate({ editor: changed }) {
      const next = changed.isEmpty ? '' : changed.getHTML();
      reported.current = next;
      onChange(next);
    },
  });
  const state = useEditorState({ editor, selector: toolState });

  useEffect(() => {
    if (html === reported.current) return;
    reported.current = html;
    editor.commands.setContent(html, { emitUpdate: false });
  }, [editor, html]);

  const command = (run: (chain: ReturnType<Editor['chain']>) => ReturnType<Editor['chain']>) => () => run(editor.chain().focus()).run();
  const tools: Tool[] = [
    { label: t`Bold`, icon: Bold, active: state.bold, run: command((chain) => chain.toggleBold()) },
    { label: t`Italic`, icon: Italic, active: state.italic, run: command((chain) => chain.toggleItalic()) },
    { label: t`Heading`, icon: Heading2, active: state.h2, run: command((chain) => chain.toggleHeading({ level: 2 })) },
    { label: t`Subheading`, icon: Heading3, active: state.h3, run: command((chain) => chain.toggleHeading({ level: 3 })) },
    { label: t`Bulleted list`, icon: List, active: state.bullets, run: command((chain) => chain.toggleBulletList()) },
    { label: t`Numbered list`, icon: ListOrdered, active: state.numbers, run: command((chain) => chain.toggleOrderedList()) },
    { label: t`Quote`, icon: Quote, active: state.quote, run: command((chain) => chain.toggleBlockquote()) },
    { label: t`Link`, icon: Link, active: state.link || linking, run: () => setLinking((open) => !open) },
    { label: t`Undo`, icon: Undo2, disabled: !state.canUndo, run: command((chain) => chain.undo()) },
    { label: t`Redo`, icon: Redo2, disabled: !state.canRedo, run: command((chain) => chain.redo()) },
  ];

  return (
    <div className={formStyles.field}>
      {/* A contenteditable is no labelable element: the label names it by id. */}
      <span id={`${id}-label`} className={formStyles.label}>
        {label}
      </span>
      <div className={styles.frame} data-invalid={error ? true : undefined}>
        <Toolbar label={t`Formatting of ${label}`} tools={tools} />
        {linking && <LinkForm editor={editor} onClose={() => setLinking(false)} />}
        <EditorContent editor={editor} className={styles.content} data-name={spec.name} />
      </div>
      {error && (
        <p id={errorId} className={formStyles.error}>
          {error}
        </p>
      )}
    </div>
  );
}
