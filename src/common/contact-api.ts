/** The contact form's endpoints, named once for the server, the browser and the tests. */
export const CONTACT_API = {
  /** POST: JSON from the page's script, or a plain form post (urlencoded) without JavaScript. */
  messages: '/api/contact/messages',
  /** GET: a signed time stamp that the form sends back with the message. */
  formToken: '/api/contact/form-token',
} as const;

/** The bounds of a message, in characters; the page shows them before its rules (contact-schemas.ts) arrive. */
export const MESSAGE_MIN_LENGTH = 10;
export const CONTACT_MESSAGE_MAX_LENGTH = 5000;
/** A reply from the console may quote and explain at length, within reason. */
export const REPLY_MAX_LENGTH = 10_000;

/**
 * A message sent sooner than this after its form token was issued was not typed by a person. The
 * page's script waits out the rest before it sends, so a fast typist is never taken for a robot.
 */
export const CONTACT_MIN_FILL_SECONDS = 3;
/** A form token older than this is refused; the page asks for a new one well before. */
export const CONTACT_TOKEN_MAX_AGE_SECONDS = 24 * 60 * 60;

export interface FormTokenAnswer {
  token: string;
}

/** Every accepted message gets this answer, spam included: a robot learns nothing from it. */
export interface ContactAnswer {
  status: 'received';
}

/** The subjects the form offers when config.json names none; their labels are in `contact:subjects`. */
export const DEFAULT_CONTACT_SUBJECTS = ['question', 'support', 'feedback', 'privacy', 'other'] as const;
