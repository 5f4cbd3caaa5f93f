import { getTableColumns, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Changes } from '../../contract/history';
import { fileUrl } from '../files/storage';
import { revisions } from '../store/schema';
import type { ResourceContext } from './context';
import type { Tx, Values } from './types';

type RevisionRow = typeof revisions.$inferSelect;

/**
 * A revision's changes and values as the entry shows them: stored column names become its fields, moments ISO 8601, a
 * picture's key its URL; a changed column that is none of its fields is its secret field, named
 * and never shown (the trigger kept its value out), where the entry has one.
 */
export function revisionShape({ resource, table, shownKeys, instants, image }: ResourceContext) {
  const columns = getTableColumns(table) as Record<string, PgColumn>;
  const keyOf = new Map(Object.entries(columns).map(([key, column]) => [column.name, key]));
  const shown = new Set(shownKeys);
  const secrets = Object.keys(resource.secret ?? {});
  const imageColumn = image && columns[image.column]!.name;
  const value = (key: string, stored: unknown) => (instants.has(key) && typeof stored === 'string' ? new Date(stored).toISOString() : stored);
  const fieldsOf = (stored: Values | null): Values => {
    const fields: Values = {};
    for (const [name, kept] of Object.entries(stored ?? {})) {
      const key = keyOf.get(name);
      if (key && shown.has(key)) fields[key] = value(key, kept);
    }
    if (image && imageColumn && stored && imageColumn in stored) fields[image.field] = fileUrl(stored[imageColumn] as string | null);
    return fields;
  };
  return (row: RevisionRow): { changes: Changes; values: Values } => {
    // A new order of the record's children: the order field's ids before and after, nothing to restore.
    if (row.action === 'reorder') {
      const [field] = row.changed;
      return { changes: [{ field: field!, before: (row.previous as Values)[field!], after: (row.values as Values)[field!] }], values: {} };
    }
    const after = fieldsOf(row.values as Values);
    const before = fieldsOf(row.previous as Values | null);
    const changedKeys = row.changed.map((name) => (name === imageColumn ? image!.field : keyOf.get(name))).filter((key): key is string => key !== undefined);
    const changes: Changes = [...new Set(changedKeys)].filter((key) => shown.has(key)).map((field) => ({ field, before: before[field], after: after[field] }));
    const secretChanged = row.changed.some((name) => !shown.has(keyOf.get(name) ?? '') && name !== imageColumn);
    if (secretChanged) changes.push(...secrets.map((field) => ({ field, secret: true as const })));
    return { changes, values: after };
  };
}

/** A parent's new order of its children, as one revision of the parent (a row trigger sees only positions, which it leaves out). */
export async function recordReorder(tx: Tx, parent: { tableName: string; id: string; websiteId: string | null }, field: string, before: string[], after: string[]) {
  await tx.execute(sql`
    insert into revisions (table_name, record_id, website_id, action, actor_id, actor_kind, actor_name, device, changed, previous, "values")
    select ${parent.tableName}, ${parent.id}, ${parent.websiteId}, 'reorder', (a ->> 'id')::uuid, a ->> 'kind', coalesce(a ->> 'name', ''), coalesce(a ->> 'device', ''),
      array[${field}]::text[], ${JSON.stringify({ [field]: before })}::jsonb, ${JSON.stringify({ [field]: after })}::jsonb
    from revision_actor() a`);
}
