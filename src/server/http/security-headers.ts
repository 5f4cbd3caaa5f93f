import type { FastifyReply } from 'fastify';
import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet from 'helmet';

/**
 * What the app's pages (and API answers) may use of the device: none of these. Picking a photo
 * with the camera goes through a file input (`capture`), which needs no camera permission; copying
 * an API key keeps the clipboard, which this list leaves alone.
 */
const PERMISSIONS_POLICY = [
  'accelerometer',
  'autoplay',
  'bluetooth',
  'browsing-topics',
  'camera',
  'display-capture',
  'encrypted-media',
  'fullscreen',
  'gamepad',
  'geolocation',
  'gyroscope',
  'hid',
  'idle-detection',
  'local-fonts',
  'magnetometer',
  'microphone',
  'midi',
  'payment',
  'picture-in-picture',
  'publickey-credentials-get',
  'screen-wake-lock',
  'serial',
  'usb',
  'web-share',
  'xr-spatial-tracking',
]
  .map((feature) => `${feature}=()`)
  .join(', ');

/**
 * Helmet's headers and the permissions policy, worked out once: they are the same for every answer,
 * and @fastify/helmet built its middleware (the CSP parsed again) for every request, a tenth of what
 * an unchanged delivery answer cost.
 */
const HEADERS: readonly (readonly [name: string, value: string])[] = (() => {
  const headers: Record<string, string> = { 'permissions-policy': PERMISSIONS_POLICY };
  const recorder = {
    setHeader: (name: string, value: unknown) => void (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => void delete headers[name.toLowerCase()],
  };
  helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'"],
        // White-label logos may live on the customer's own site.
        imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        workerSrc: ["'self'"],
        manifestSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    referrerPolicy: { policy: 'no-referrer' },
    // HSTS belongs to the TLS terminator in front of us; on plain http it is ignored anyway.
    strictTransportSecurity: false,
  })({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
  });
  return Object.entries(headers);
})();

/**
 * Those headers on an answer, each unless the route set its own (a file's sandbox, the delivery
 * API's cross-origin resource policy). A 304 gets none: the browser keeps those of the answer it
 * revalidated, and a 304 carries only what updates a cache (RFC 9110 §15.4.5).
 */
export function secureAnswer(reply: FastifyReply): void {
  if (reply.statusCode === 304) return;
  for (const [name, value] of HEADERS) if (!reply.hasHeader(name)) reply.header(name, value);
}
