import type { I18n } from '@lingui/core';
import { dateFormat, dateTimeFormat, formatMoney, currencyOf, languageName } from '../../components/intl-formats';
import type { Row } from '../../db/resource-store';
import type { Column } from './screen';
import type { OptionLists } from './use-option-lists';

/** What a screen's column shows of a row, in words: a list's cell, a card's line, a record page's value. */
export function cellText(column: Column, row: Row, options: OptionLists, i18n: I18n, changes?: (row: Row) => string): string {
  const value = row[column.key];
  switch (column.format) {
    case 'date':
      return typeof value === 'string' ? dateFormat(i18n.locale).format(new Date(value)) : '';
    case 'datetime':
      return typeof value === 'string' ? dateTimeFormat(i18n.locale, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(value)) : '';
    case 'changes':
      // Its words need the entry's screen (resource-list-page.tsx useChangeTexts): without them, nothing rather than a key.
      return changes?.(row) ?? '';
    case 'count':
      return String(value && typeof value === 'object' ? Object.keys(value).length : 0);
    case 'languages': {
      const names = (value && typeof value === 'object' ? value : {}) as Record<string, { name?: unknown } | undefined>;
      return Object.keys(names)
        .filter((code) => names[code]?.name)
        .map((code) => languageName(code, i18n.locale))
        .join(', ');
    }
    case 'lookup': {
      // The record's name once its list is in ("unknown" when it is nowhere); nothing while it loads, never its id.
      const named = options[column.source.resource.name];
      return (Array.isArray(value) ? value : [value])
        .flatMap((id) => named?.find((option) => option.value === id)?.label ?? [])
        .join(', ');
    }
    case 'choice': {
      const choice = column.choices.find((candidate) => candidate.value === value);
      return choice ? i18n._(choice.label) : String(value ?? '');
    }
    case 'money':
      return typeof value === 'number' ? formatMoney(value, currencyOf(row), i18n.locale) : '';
    case 'image':
      return '';
    default:
      return column.text ? column.text(row, i18n) : String(value ?? '');
  }
}
