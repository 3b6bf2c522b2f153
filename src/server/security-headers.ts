import { secureHeaders } from 'hono/secure-headers';

export interface InlineHashes {
  scripts: string[];
  styles: string[];
}

/**
 * Headers on every answer. The only inline code the pages carry is what the build hashed, so the
 * policy allows exactly that and the site's own files, and nothing from elsewhere.
 */
export function securityHeaders(inline: InlineHashes) {
  return secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'", ...inline.scripts],
      styleSrc: ["'self'", ...inline.styles],
      imgSrc: ["'self'", 'data:'],
      fontSrc: ["'self'"],
      connectSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'none'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
    strictTransportSecurity: 'max-age=63072000; includeSubDomains',
    referrerPolicy: 'strict-origin-when-cross-origin',
    crossOriginOpenerPolicy: 'same-origin',
    crossOriginResourcePolicy: 'same-origin',
    xFrameOptions: 'DENY',
    permissionsPolicy: {
      camera: [],
      microphone: [],
      geolocation: [],
      payment: [],
      usb: [],
      browsingTopics: [],
    },
  });
}
