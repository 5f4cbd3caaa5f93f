/** The delivery API's reference, a page the server renders from its OpenAPI document (server/openapi.ts). */
export const DELIVERY_REFERENCE_PATH = '/delivery-api';

/** Navigations the server answers itself, not the app's shell: the service worker lets them through. */
export const SERVER_PAGES: readonly RegExp[] = [/^\/api\//, new RegExp(`^${DELIVERY_REFERENCE_PATH}(/|$)`)];
