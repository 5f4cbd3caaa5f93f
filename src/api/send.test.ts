import { describe, expect, it, vi } from 'vitest';
import { messages } from '../contract/messages';
import { ANSWER_WAIT_MS, ApiError, send, sourceText, ValidationError, type Transport } from './send';

// The core runs in the service worker too: everything it needs comes in the Transport, nothing
// from localStorage or Lingui (request.test.ts covers the page's transport).
function worker(fetchImpl: typeof fetch, changes: Partial<Transport> = {}): Transport {
  return { base: 'https://api.example.test', token: 'tok-w', language: 'de', translate: sourceText, fetch: fetchImpl, ...changes };
}

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status });

describe('send', () => {
  it('sends the transport’s token, language and base, the caller’s headers and a JSON body', async () => {
    localStorage.setItem('auth_token', 'tok-page');
    const fetchImpl = vi.fn<typeof fetch>().mockResolvedValue(json({ success: true, data: { ok: 1 } }, 201));

    const answer = await send('/api/categories', { method: 'POST', body: { name: 'x' }, headers: { 'Idempotency-Key': 'k-1' } }, worker(fetchImpl));

    expect(answer).toEqual({ status: 201, envelope: { success: true, data: { ok: 1 } } });
    const [url, init] = fetchImpl.mock.calls[0]!;
    const headers = new Headers(init?.headers);
    expect(url).toBe('https://api.example.test/api/categories');
    expect([headers.get('Authorization'), headers.get('Accept-Language'), headers.get('Idempotency-Key'), headers.get('Content-Type')]).toEqual([
      'Bearer tok-w',
      'de',
      'k-1',
      'application/json',
    ]);
    expect(init?.body).toBe('{"name":"x"}');
    localStorage.clear();
  });

  it('sends a FormData as it is, leaving its multipart Content-Type to fetch', async () => {
    const fetchImpl = vi.fn<typeof fetch>().mockResolvedValue(json({ success: true, data: null }));
    const form = new FormData();
    form.append('file', new File(['png'], 'logo.png', { type: 'image/png' }));

    await send('/api/settings/logo', { method: 'POST', body: form }, worker(fetchImpl));

    const [, init] = fetchImpl.mock.calls[0]!;
    const headers = new Headers(init?.headers);
    expect(init?.body).toBe(form);
    expect(headers.has('Content-Type')).toBe(false);
    expect([headers.get('Authorization'), headers.get('Accept-Language')]).toEqual(['Bearer tok-w', 'de']);
  });

  it('takes an already translated fallback as it is', async () => {
    const fetchImpl = vi.fn<typeof fetch>().mockResolvedValue(json({ success: false }, 403));

    await expect(send('/x', { fallback: 'Kategorie konnte nicht geändert werden' }, worker(fetchImpl))).rejects.toThrow('Kategorie konnte nicht geändert werden');
  });

  it('names a network failure with the transport’s translation', async () => {
    const fetchImpl = vi.fn<typeof fetch>().mockRejectedValue(new TypeError('Failed to fetch'));

    const error = (await send('/x', {}, worker(fetchImpl)).catch((reason: unknown) => reason)) as ApiError;
    expect([error.message, error.status]).toEqual([messages.networkError.message, 0]);
  });

  describe('a connection that hangs', () => {
    /** A fetch that never answers, as over a dead Wi-Fi: it ends only when its signal aborts. */
    const hanging = vi.fn<typeof fetch>(
      (_url, init) => new Promise((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')))),
    );

    it('counts as unanswered once the answer is overdue, so the outbox sends it again instead of waiting on it', async () => {
      vi.useFakeTimers();
      try {
        const outcome = send('/x', { method: 'PUT', body: {} }, worker(hanging)).catch((reason: unknown) => reason);
        await vi.advanceTimersByTimeAsync(ANSWER_WAIT_MS - 1);
        expect(hanging.mock.calls.at(-1)![1]?.signal?.aborted).toBe(false);
        await vi.advanceTimersByTimeAsync(1);
        const error = (await outcome) as ApiError;
        expect([error.message, error.status]).toEqual([messages.networkError.message, 0]);
      } finally {
        vi.useRealTimers();
      }
    });

    it('gives an upload the time its size takes on a slow connection', async () => {
      vi.useFakeTimers();
      try {
        const form = new FormData();
        form.append('file', new File([new Uint8Array(1_000_000)], 'dish.jpg', { type: 'image/jpeg' }));
        const outcome = send('/upload', { method: 'POST', body: form }, worker(hanging)).catch((reason: unknown) => reason);
        await vi.advanceTimersByTimeAsync(ANSWER_WAIT_MS + 39_000);
        expect(hanging.mock.calls.at(-1)![1]?.signal?.aborted).toBe(false);
        await vi.advanceTimersByTimeAsync(1_000);
        expect(((await outcome) as ApiError).status).toBe(0);
      } finally {
        vi.useRealTimers();
      }
    });

    it('hands the caller’s own abort back as it is', async () => {
      const caller = new AbortController();
      const outcome = send('/x', { signal: caller.signal }, worker(hanging)).catch((reason: unknown) => reason);
      caller.abort(new DOMException('left the page', 'AbortError'));
      expect(((await outcome) as DOMException).message).toBe('left the page');
    });
  });

  it.each([
    ['a captive portal’s login page', 200],
    ['a proxy’s error page', 502],
    ['a sign-in page in front of the API', 401],
  ])('takes an answer that is not JSON (%s, %i) for no answer at all', async (_case, status) => {
    const onUnauthorized = vi.fn();
    const page = new Response('<!doctype html><title>Sign in</title>', { status, headers: { 'content-type': 'text/html' } });
    const fetchImpl = vi.fn<typeof fetch>().mockResolvedValue(page);

    const error = (await send('/x', { method: 'PUT', body: {} }, worker(fetchImpl, { onUnauthorized })).catch((reason: unknown) => reason)) as ApiError;

    expect(error).toBeInstanceOf(ApiError);
    expect([error.message, error.status]).toEqual([messages.networkError.message, 0]);
    // Not our server: the session it holds is not in question.
    expect(onUnauthorized).not.toHaveBeenCalled();
  });

  it('takes a proxy’s page refusing the size (413) for a refusal, which sending again would only repeat', async () => {
    const page = new Response('<html><h1>413 Request Entity Too Large</h1></html>', { status: 413, headers: { 'content-type': 'text/html' } });
    const error = (await send('/x', { method: 'POST', body: {} }, worker(vi.fn<typeof fetch>().mockResolvedValue(page))).catch((reason: unknown) => reason)) as ApiError;

    expect([error.message, error.status]).toEqual([messages.payloadTooLarge.message, 413]);
  });

  it('tells the transport about a 401, and only about a 401', async () => {
    const onUnauthorized = vi.fn();
    const fetchImpl = vi.fn<typeof fetch>().mockResolvedValueOnce(json({ success: false, message: 'Forbidden' }, 403));
    fetchImpl.mockResolvedValueOnce(json({ success: false, message: 'Please sign in again.' }, 401));

    await expect(send('/x', {}, worker(fetchImpl, { onUnauthorized }))).rejects.toBeInstanceOf(ApiError);
    expect(onUnauthorized).not.toHaveBeenCalled();
    await expect(send('/x', {}, worker(fetchImpl, { onUnauthorized }))).rejects.toBeInstanceOf(ApiError);
    expect(onUnauthorized).toHaveBeenCalledOnce();
  });

  it('returns the field errors of a 400 and the current row of a 409 as details', async () => {
    const errors = [{ path: 'body.name', message: 'Taken' }];
    const fetchImpl = vi
      .fn<typeof fetch>()
      .mockResolvedValueOnce(json({ success: false, message: 'Invalid', errors }, 400))
      .mockResolvedValueOnce(json({ success: false, message: 'Changed', data: { _id: 'a', version: 2 } }, 409));

    const invalid = await send('/x', {}, worker(fetchImpl)).catch((reason: unknown) => reason);
    const conflict = (await send('/x', {}, worker(fetchImpl)).catch((reason: unknown) => reason)) as ApiError;

    expect((invalid as ValidationError).errors).toEqual(errors);
    expect([conflict.status, (conflict.details as { data: unknown }).data]).toEqual([409, { _id: 'a', version: 2 }]);
  });
});
