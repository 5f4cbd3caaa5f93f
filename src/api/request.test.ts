import { i18n } from '@lingui/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod/mini';
import { AUTH_CHANGE_EVENT } from './session';
import { messages } from '../contract/messages';
import { ApiError, request, requestData, ValidationError } from './request';

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

  it('fails with the network message and no status on a non-JSON answer: not our server answered', async () => {
    fetchMock.mockResolvedValue(
      new Response('<html><body>502 Bad Gateway</body></html>', { status: 502, headers: { 'Content-Type': 'text/html' } }),
    );

    const error = await failureOf(request('/api/websites'));
    expect(error.message).toBe('Network error or server unavailable');
    expect(error.status).toBe(0);
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

function storeSession(token: string) {
  localStorage.setItem('auth_token', token);
  localStorage.setItem('auth_user', '{"id":"u1"}');
  localStorage.setItem('pendingUser', '{"emailOrUsername":"ada"}');
}

describe('request and the session', () => {
  it('ends the session when the server rejects the token it was sent', async () => {
    storeSession('tok-1');
    const announced = vi.fn();
    window.addEventListener(AUTH_CHANGE_EVENT, announced);
    respond({ success: false, message: 'Please sign in again.' }, 401);

    expect((await failureOf(request('/api/profile'))).status).toBe(401);
    expect([localStorage.getItem('auth_token'), localStorage.getItem('auth_user'), localStorage.getItem('pendingUser')]).toEqual([
      null,
      null,
      null,
    ]);
    expect(announced).toHaveBeenCalled();
    window.removeEventListener(AUTH_CHANGE_EVENT, announced);
  });

  it('keeps everything on a 401 to a call without a token, such as a wrong PIN', async () => {
    localStorage.setItem('pendingUser', '{"emailOrUsername":"ada"}');
    respond({ success: false, message: 'The PIN is wrong or has expired.' }, 401);

    await failureOf(request('/api/auth/verify-pin', { method: 'POST', body: {} }));
    expect(localStorage.getItem('pendingUser')).toBe('{"emailOrUsername":"ada"}');
  });

  it('keeps a newer session when a request sent with an older token is rejected', async () => {
    storeSession('tok-old');
    fetchMock.mockImplementation(async () => {
      localStorage.setItem('auth_token', 'tok-new');
      return json({ success: false, message: 'Please sign in again.' }, 401);
    });

    await failureOf(request('/api/profile'));
    expect(localStorage.getItem('auth_token')).toBe('tok-new');
  });

  it('keeps the session on other refusals', async () => {
    storeSession('tok-1');
    respond({ success: false, message: 'You are not allowed to do this.' }, 403);

    await failureOf(request('/api/users'));
    expect(localStorage.getItem('auth_token')).toBe('tok-1');
  });
});

describe('fixed messages', () => {
  it('names a failure without a server message with the call’s fixed message', async () => {
    respond({ success: false }, 500);

    const error = await failureOf(request('/api/auth/login', { method: 'POST', body: {}, fallback: messages.loginFailed }));
    expect(error.message).toBe('Login failed');
  });

  it('prefers the server’s own message to the fixed one', async () => {
    respond({ success: false, message: 'The email, username or password is wrong.' }, 401);

    const error = await failureOf(request('/api/auth/login', { method: 'POST', body: {}, fallback: messages.loginFailed }));
    expect(error.message).toBe('The email, username or password is wrong.');
  });

  it('returns the data of a success answer in the expected shape', async () => {
    respond({ success: true, data: { tempToken: 't-1', extra: true } });

    await expect(requestData('/api/x', z.object({ tempToken: z.string() }), { fallback: messages.pinVerificationFailed })).resolves.toEqual({
      tempToken: 't-1',
    });
  });

  it.each([
    ['no data', { success: true }],
    ['data of another shape', { success: true, data: { token: 1 } }],
  ])('fails a success answer with %s with the fixed message and the status', async (_case, body) => {
    respond(body, 201);

    const error = await failureOf(requestData('/api/x', z.object({ tempToken: z.string() }), { fallback: messages.pinVerificationFailed }));
    expect(error.message).toBe('PIN verification failed');
    expect(error.status).toBe(201);
    expect(error.details).toEqual(body);
  });
});
