import { i18n } from '@lingui/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, request, ValidationError } from './request';

const fetchMock = vi.fn<typeof fetch>();

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

function respond(body: unknown, status = 200): void {
  fetchMock.mockImplementation(async () => json(body, status));
}

function sentHeaders(): Headers {
  return new Headers(fetchMock.mock.calls[0]?.[1]?.headers);
}

async function failureOf(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => null,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  fetchMock.mockReset();
  localStorage.clear();
});

describe('request', () => {
  it('returns the success envelope', async () => {
    const envelope = {
      success: true,
      data: [{ _id: '1' }],
      message: 'Loaded',
      pagination: { currentPage: 1, totalPages: 1, totalItems: 1, itemsPerPage: 10 },
    };
    respond(envelope);

    await expect(request('/api/languages')).resolves.toEqual(envelope);
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/languages');
    expect(fetchMock.mock.calls[0]?.[1]?.method).toBe('GET');
  });

  it('prefixes the configured API base', async () => {
    vi.stubEnv('VITE_API_BASE', 'https://api.example.test/');
    respond({ success: true, data: null });

    await request('/api/health');
    expect(fetchMock.mock.calls[0]?.[0]).toBe('https://api.example.test/api/health');
  });

  it('sends the stored token as a bearer Authorization header', async () => {
    localStorage.setItem('auth_token', 'tok-123');
    respond({ success: true, data: null });

    await request('/api/profile');
    expect(sentHeaders().get('Authorization')).toBe('Bearer tok-123');
  });

  it('sends no Authorization header without a stored token', async () => {
    respond({ success: true, data: null });

    await request('/api/white-label/config');
    expect(sentHeaders().has('Authorization')).toBe(false);
  });

  it('sends Accept-Language from the stored language', async () => {
    localStorage.setItem('language', 'de');
    respond({ success: true, data: null });

    await request('/api/profile');
    expect(sentHeaders().get('Accept-Language')).toBe('de');
  });

  it('sends Accept-Language en when no language or an unknown one is stored', async () => {
    respond({ success: true, data: null });
    await request('/api/profile');
    localStorage.setItem('language', 'fr');
    await request('/api/profile');

    for (const [, init] of fetchMock.mock.calls) expect(new Headers(init?.headers).get('Accept-Language')).toBe('en');
  });

  it('sends a JSON body with a JSON content type', async () => {
    respond({ success: true, data: null });

    await request('/api/auth/login', { method: 'POST', body: { emailOrUsername: 'a', password: 'b' } });
    const init = fetchMock.mock.calls[0]?.[1];
    expect(init?.method).toBe('POST');
    expect(init?.body).toBe('{"emailOrUsername":"a","password":"b"}');
    expect(sentHeaders().get('Content-Type')).toBe('application/json');
  });

  it('sends no body and no content type when there is no body', async () => {
    respond({ success: true, data: null });

    await request('/api/auth/logout', { method: 'POST' });
    expect(fetchMock.mock.calls[0]?.[1]?.body).toBeUndefined();
    expect(sentHeaders().has('Content-Type')).toBe(false);
  });

  it('adds the caller’s headers', async () => {
    respond({ success: true, data: null });

    await request('/api/languages/1', { method: 'DELETE', headers: { 'If-Match': '"3"' } });
    expect(sentHeaders().get('If-Match')).toBe('"3"');
  });

  it('fails with the server’s message, status and body', async () => {
    const body = { success: false, message: 'Website not found' };
    respond(body, 404);

    const error = await failureOf(request('/api/websites/x'));
    expect(error).not.toBeInstanceOf(ValidationError);
    expect(error.message).toBe('Website not found');
    expect(error.status).toBe(404);
    expect(error.details).toEqual(body);
  });

  it('fails with "Request failed" when the server gives no message', async () => {
    respond({ success: false }, 500);

    const error = await failureOf(request('/api/websites'));
    expect(error.message).toBe('Request failed');
    expect(error.status).toBe(500);
  });

  it('translates the fixed message into the active language', async () => {
    i18n.loadAndActivate({ locale: 'de', messages: { 'api.requestFailed': 'Anfrage fehlgeschlagen' } });
    respond({ success: false }, 500);

    expect((await failureOf(request('/api/websites'))).message).toBe('Anfrage fehlgeschlagen');
  });

  it('fails with a ValidationError carrying the field errors on a 400', async () => {
    const errors = [{ path: 'email', message: 'Invalid email' }];
    respond({ success: false, message: 'Some fields are not valid', errors }, 400);

    const error = await failureOf(request('/api/users', { method: 'POST', body: {} }));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.message).toBe('Some fields are not valid');
    expect(error.status).toBe(400);
    expect((error as ValidationError).errors).toEqual(errors);
  });

  it('fails with a plain ApiError on a 400 without field errors', async () => {
    respond({ success: false, message: 'Bad request' }, 400);

    const error = await failureOf(request('/api/users', { method: 'POST', body: {} }));
    expect(error).not.toBeInstanceOf(ValidationError);
    expect(error.message).toBe('Bad request');
  });

  it('fails with "Network error or server unavailable" and status 0 when fetch rejects', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));

    const error = await failureOf(request('/api/websites'));
    expect(error.message).toBe('Network error or server unavailable');
    expect(error.status).toBe(0);
  });

  it('fails with the network message but keeps the status on a non-JSON answer', async () => {
    fetchMock.mockResolvedValue(
      new Response('<html><body>502 Bad Gateway</body></html>', { status: 502, headers: { 'Content-Type': 'text/html' } }),
    );

    const error = await failureOf(request('/api/websites'));
    expect(error.message).toBe('Network error or server unavailable');
    expect(error.status).toBe(502);
  });

  it('treats a 200 without success: true as a failure', async () => {
    respond({ success: false, message: 'Login failed' });

    const error = await failureOf(request('/api/auth/login', { method: 'POST', body: {} }));
    expect(error.message).toBe('Login failed');
    expect(error.status).toBe(200);
  });

  it('rethrows the abort reason when the caller aborts', async () => {
    const controller = new AbortController();
    fetchMock.mockImplementation(() => {
      controller.abort();
      return Promise.reject(new DOMException('The operation was aborted.', 'AbortError'));
    });

    const error: unknown = await request('/api/websites', { signal: controller.signal }).catch((reason: unknown) => reason);
    expect(error).not.toBeInstanceOf(ApiError);
    expect(error).toBe(controller.signal.reason);
  });
});
