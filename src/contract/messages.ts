import type { MessageDescriptor } from '@lingui/core';

/**
 * The fixed messages of the error catalogue (spec §8) and of the server's error mapping.
 * Plain descriptors marked for extraction, not macros: this file also runs in Node and in the
 * service worker, where no macro transform happens. Explicit ids keep them stable for translators.
 */
export const messages = {
  requestFailed: /*i18n*/ { id: 'api.requestFailed', message: 'Request failed' },
  networkError: /*i18n*/ { id: 'api.networkError', message: 'Network error or server unavailable' },
  validationFailed: /*i18n*/ { id: 'error.validationFailed', message: 'Some fields are not valid' },
  malformedJson: /*i18n*/ { id: 'error.malformedJson', message: 'The request body is not valid JSON' },
  unsupportedMediaType: /*i18n*/ { id: 'error.unsupportedMediaType', message: 'This content type is not supported' },
  payloadTooLarge: /*i18n*/ { id: 'error.payloadTooLarge', message: 'The request is too large' },
  routeNotFound: /*i18n*/ { id: 'error.routeNotFound', message: 'There is no such API endpoint' },
  notFound: /*i18n*/ { id: 'error.notFound', message: 'Not found' },
  badRequest: /*i18n*/ { id: 'error.badRequest', message: 'The request could not be understood' },
  internal: /*i18n*/ { id: 'error.internal', message: 'Something went wrong on the server. Please try again.' },
  unavailable: /*i18n*/ { id: 'error.unavailable', message: 'The service is temporarily unavailable' },
} satisfies Record<string, MessageDescriptor>;

export type MessageKey = keyof typeof messages;
