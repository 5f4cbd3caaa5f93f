import { describe, expect, it } from 'vitest';
import { subcategories } from '../contract/resources/catalogs';
import { describeMutation } from './outbox-entry';

const ID = '0190d6b0-0000-7000-8000-00000000000a';

describe('describeMutation', () => {
  it('creates with POST to the list path, the client’s _id in the body', () => {
    expect(describeMutation(subcategories, { kind: 'create', id: ID, values: { name: 'Wine' } })).toEqual({
      method: 'POST',
      path: '/api/subcategories',
      itemPath: `/api/subcategories/${ID}`,
      body: { name: 'Wine', _id: ID },
      baseVersion: null,
    });
  });

  it('updates with PUT of the changed fields and the version they are based on (the outbox sends it as If-Match)', () => {
    expect(describeMutation(subcategories, { kind: 'update', id: ID, values: { name: 'Red wine' }, baseVersion: 4 })).toMatchObject({
      method: 'PUT',
      path: `/api/subcategories/${ID}`,
      body: { name: 'Red wine' },
      baseVersion: 4,
    });
  });

  it('deletes with the base version and no body', () => {
    const request = describeMutation(subcategories, { kind: 'delete', id: ID, baseVersion: 4 });
    expect(request).toMatchObject({ method: 'DELETE', path: `/api/subcategories/${ID}`, baseVersion: 4 });
    expect(request.body).toBeUndefined();
  });
});
