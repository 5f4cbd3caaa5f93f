import type { MessageDescriptor } from '@lingui/core';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { FieldError, Failure } from '../../contract/envelope';
import { negotiateLanguage } from '../../contract/languages';
import { messages } from '../../contract/messages';
import { isDataException } from '../store/pg-errors';
import { translateIssue, translator } from './i18n';

/** An error a route throws on purpose: its status and translated message reach the caller. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly descriptor: MessageDescriptor,
    readonly data?: unknown,
    /** Field errors to show next to the inputs, like a validation failure's; translated when answered. */
    readonly errors?: { path: string; message: MessageDescriptor }[],
  ) {
    super(descriptor.message ?? descriptor.id);
  }
}

/** A 400 about one field (`body.username`): the form shows it next to that input, as it shows a validation error. */
export const fieldError = (path: string, descriptor: MessageDescriptor) => new HttpError(400, descriptor, undefined, [{ path, message: descriptor }]);

const byId = new Map<string, MessageDescriptor>(Object.values(messages).map((descriptor) => [descriptor.id, descriptor]));

/** What a schema says of a value it refuses, for a field error: its own message (a catalog id), else "not valid". */
export const issueMessage = (issue: { message: string }): MessageDescriptor => byId.get(issue.message) ?? messages.invalidValue;

export function sendFailure(reply: FastifyReply, status: number, body: Omit<Failure, 'success'>) {
  return reply.status(status).send({ success: false, ...body } satisfies Failure);
}

const byCode: Record<string, { status: number; message: MessageDescriptor }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, message: messages.malformedJson },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, message: messages.malformedJson },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, message: messages.badRequest },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, message: messages.payloadTooLarge },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, message: messages.unsupportedMediaType },
  // @fastify/multipart: not a multipart body, or more of it than one upload may carry.
  FST_INVALID_MULTIPART_CONTENT_TYPE: { status: 415, message: messages.unsupportedMediaType },
  FST_FILES_LIMIT: { status: 413, message: messages.payloadTooLarge },
  FST_PARTS_LIMIT: { status: 413, message: messages.payloadTooLarge },
  FST_FIELDS_LIMIT: { status: 413, message: messages.payloadTooLarge },
  FST_REQ_FILE_TOO_LARGE: { status: 413, message: messages.fileTooLarge },
  FST_PROTO_VIOLATION: { status: 400, message: messages.badRequest },
  // The connection closed before the form was whole: an interrupted phone upload.
  FST_MP_PREMATURE_CLOSE: { status: 400, message: messages.uploadIncomplete },
  // Fastify's router, before any route or hook: a bad percent-encoding (`%C0%AE`), and a path
  // parameter longer than any id or slug, answered like an unknown id.
  FST_ERR_BAD_URL: { status: 400, message: messages.badRequest },
  FST_ERR_MAX_PARAM_LENGTH: { status: 404, message: messages.notFound },
};

/**
 * What busboy (under @fastify/multipart) throws for a body that is no whole form: cut off, its
 * boundary wrong, missing or too long. It gives them no code, only these texts.
 */
const BROKEN_FORM = /^(Unexpected end of multipart data|\w+ terminated early due to unexpected end of multipart data|Multipart: Boundary not found|The needle cannot have a length bigger than 256\.)$/;
const isBrokenForm = (request: FastifyRequest, error: FastifyError) => error.statusCode === undefined && request.isMultipart() && BROKEN_FORM.test(error.message);

function validationErrors(request: FastifyRequest, error: FastifyError): FieldError[] {
  if (!hasZodFastifySchemaValidationErrors(error)) return [];
  const part = { body: request.body, querystring: request.query, params: request.params, headers: request.headers }[error.validationContext ?? 'body'];
  return error.validation.map((v) => {
    const path = v.instancePath.split('/').filter(Boolean);
    const issue = { ...v.params, code: v.keyword, message: v.message ?? '', path };
    // A field left out is required, unless its schema names its own message (Zod would say "expected string, received undefined").
    const left = v.keyword === 'invalid_type' && !byId.has(issue.message) && path.reduce<unknown>((value, key) => (value as Record<string, unknown> | undefined)?.[key], part) === undefined;
    // The failing part (body, querystring, params) leads the path, so `body.email` is unambiguous.
    return { path: [error.validationContext, ...path].filter(Boolean).join('.'), message: left ? request.t(messages.required) : translateIssue(request.lang, issue) };
  });
}

/**
 * docs/design.md §4's error mapping. Bad input is always a 4xx with a translated message; a 500 is
 * only ever our own fault, logged with its stack and answered without one.
 */
export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof HttpError) {
      return sendFailure(reply, error.statusCode, {
        message: request.t(error.descriptor),
        ...(error.data === undefined ? {} : { data: error.data }),
        ...(error.errors ? { errors: error.errors.map(({ path, message }) => ({ path, message: request.t(message) })) } : {}),
      });
    }
    if (error.validation) {
      return sendFailure(reply, 400, { message: request.t(messages.validationFailed), errors: validationErrors(request, error) });
    }
    const known = error.code ? byCode[error.code] : undefined;
    if (known) return sendFailure(reply, known.status, { message: request.t(known.message) });
    if (isBrokenForm(request, error)) {
      request.log.info({ err: error }, 'broken multipart body');
      return sendFailure(reply, 400, { message: request.t(messages.uploadIncomplete) });
    }
    if (error instanceof SyntaxError) return sendFailure(reply, 400, { message: request.t(messages.malformedJson) });
    if (isDataException(error)) {
      request.log.info({ err: error }, 'value the database cannot hold');
      return sendFailure(reply, 400, { message: request.t(messages.badRequest) });
    }

    const status = error.statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      return sendFailure(reply, 500, { message: request.t(messages.internal) });
    }
    // Another framework-level client error (429 from a plugin, 406, …): keep its status.
    request.log.info({ err: error }, 'client error');
    return sendFailure(reply, status, { message: status === 404 ? request.t(messages.notFound) : request.t(messages.badRequest) });
  });
}

/**
 * Fastify's `frameworkErrors`: what its router refuses before any hook has run (so the language is
 * read here), answered in the envelope like everything else, never echoing the URL it refused.
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const t = translator(negotiateLanguage(request.headers['accept-language']));
  const { status, message } = (error.code ? byCode[error.code] : undefined) ?? { status: 500, message: messages.internal };
  request.log[status >= 500 ? 'error' : 'info']({ code: error.code }, 'URL refused by the router');
  return sendFailure(reply, status, { message: t(message) });
}
