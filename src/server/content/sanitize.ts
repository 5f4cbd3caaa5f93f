import { createRequire } from 'node:module';
import type sanitizeHtml from 'sanitize-html';
import type { ResourceHooks } from '../crud';

/** `rel` words a link may carry; anything else (an `opener`) goes. */
const REL_WORDS = new Set(['noopener', 'noreferrer', 'nofollow', 'ugc', 'sponsored']);

/**
 * Tags whose content is no text a person wrote: dropped with the tag, not shown as text (an
 * SVG's or a template's insides are markup, a script's is code).
 */
const DROPPED_WITH_CONTENT = ['script', 'style', 'textarea', 'option', 'xmp', 'noscript', 'noembed', 'noframes', 'iframe', 'object', 'svg', 'math', 'template', 'title'];

/** A link's target: a new tab or the page itself; a new tab never gets a handle on the page that opened it. */
function link(_tag: string, attribs: sanitizeHtml.Attributes): sanitizeHtml.Tag {
  const blank = attribs.target === '_blank';
  const words = new Set((attribs.rel ?? '').toLowerCase().split(/\s+/).filter((word) => REL_WORDS.has(word)));
  if (blank) {
    words.add('noopener');
    words.add('noreferrer');
  }
  const { target: _target, rel: _rel, ...rest } = attribs;
  return { tagName: 'a', attribs: { ...(blank && { target: '_blank' }), ...(words.size > 0 && { rel: [...words].join(' ') }), ...rest } };
}

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: ['p', 'h2', 'h3', 'h4', 'strong', 'em', 's', 'u', 'code', 'pre', 'blockquote', 'ul', 'ol', 'li', 'a', 'br', 'hr'],
  allowedAttributes: { a: ['href', 'target', 'rel'], ol: ['start'], code: ['class'] },
  // A code block's language (TipTap writes `language-js`) and nothing else.
  allowedClasses: { code: ['language-*'] },
  // Absolute web and mail links, or paths and anchors on the site; `//host` is another site in disguise.
  allowedSchemes: ['http', 'https', 'mailto'],
  allowProtocolRelative: false,
  nonTextTags: DROPPED_WITH_CONTENT,
  // What older editors and pasted HTML write for the same things.
  transformTags: { h1: 'h2', h5: 'h4', h6: 'h4', b: 'strong', i: 'em', strike: 's', del: 's', a: link },
};

/**
 * Rich text (pages, posts) as stored and delivered: only what TipTap's StarterKit writes, so a
 * website that shows it as HTML runs no script of an editor's, a pasted page's or an API
 * client's. Runs on every write; the editor's own output passes unchanged.
 */
export function sanitizeRichText(html: string): string {
  return sanitizer()(html, OPTIONS);
}

let loaded: typeof sanitizeHtml | undefined;
/** Loaded at the first rich text written, not at start: with its CSS parser it is fifty files a start would read for nothing. */
const sanitizer = () => (loaded ??= createRequire(import.meta.url)('sanitize-html') as typeof sanitizeHtml);

/** An entry's rich-text fields, sanitized wherever a create or update writes them. */
export function richTextFields(...fields: string[]): ResourceHooks {
  const clean = (values: Record<string, unknown>) => {
    const written = fields.filter((field) => typeof values[field] === 'string');
    return written.length === 0 ? values : { ...values, ...Object.fromEntries(written.map((field) => [field, sanitizeRichText(values[field] as string)])) };
  };
  return { beforeCreate: clean, beforeUpdate: clean };
}
