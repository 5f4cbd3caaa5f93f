/** The interface languages (spec §9); content languages are a separate catalog. */
export const INTERFACE_LANGUAGES = ['en', 'de'] as const;
export type InterfaceLanguage = (typeof INTERFACE_LANGUAGES)[number];
export const DEFAULT_LANGUAGE: InterfaceLanguage = 'en';

export function toInterfaceLanguage(value: string | null | undefined): InterfaceLanguage {
  const base = value?.trim().slice(0, 2).toLowerCase();
  return (INTERFACE_LANGUAGES as readonly string[]).includes(base ?? '') ? (base as InterfaceLanguage) : DEFAULT_LANGUAGE;
}

/** Picks the best interface language from an Accept-Language header (q-values honoured). */
export function negotiateLanguage(header: string | undefined): InterfaceLanguage {
  if (!header) return DEFAULT_LANGUAGE;
  const ranked = header
    .split(',')
    .map((part) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { tag: tag.trim().slice(0, 2).toLowerCase(), q: q ? Number(q.slice(2)) : 1 };
    })
    .filter((entry) => entry.q > 0 && (INTERFACE_LANGUAGES as readonly string[]).includes(entry.tag))
    .toSorted((a, b) => b.q - a.q);
  return (ranked[0]?.tag as InterfaceLanguage | undefined) ?? DEFAULT_LANGUAGE;
}
