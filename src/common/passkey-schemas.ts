import { ProofPasswordSchema } from './account-schemas.ts';
import { requiredText } from './fields.ts';
import { PASSKEY_NAME_MAX_LENGTH } from './passkey-api.ts';
import { z } from './zod.ts';

/**
 * The passkey requests' rules, for the server (which checks whole requests) and the account page's
 * fields. The browser's answers are only checked for shape here: bounded strings where WebAuthn
 * puts base64url; the signatures are the server's to check, and anything wrong there is
 * PASSKEY_FAILED.
 */

const base64url = (max: number) => z.string({ error: 'PASSKEY_FAILED' }).check(z.maxLength(max, 'PASSKEY_FAILED'));
const optionalText = (max: number) => z.optional(base64url(max));

/** The token from the options' answer. */
const CeremonySchema = requiredText('PASSKEY_EXPIRED').check(z.maxLength(200, 'PASSKEY_EXPIRED'));

export const PasskeyNameSchema = requiredText('INVALID_PASSKEY_NAME').check(
  z.maxLength(PASSKEY_NAME_MAX_LENGTH, 'INVALID_PASSKEY_NAME'),
);

const credentialShape = {
  id: base64url(1400),
  rawId: base64url(1400),
  type: z.literal('public-key', { error: 'PASSKEY_FAILED' }),
  authenticatorAttachment: z.optional(z.enum(['platform', 'cross-platform'], { error: 'PASSKEY_FAILED' })),
  clientExtensionResults: z._default(z.record(z.string(), z.unknown(), { error: 'PASSKEY_FAILED' }), {}),
};

const RegistrationResponseSchema = z.object(
  {
    ...credentialShape,
    response: z.object(
      {
        clientDataJSON: base64url(4096),
        attestationObject: base64url(16384),
        authenticatorData: optionalText(8192),
        publicKey: optionalText(4096),
        publicKeyAlgorithm: z.optional(z.number({ error: 'PASSKEY_FAILED' })),
        transports: z.optional(
          z.array(base64url(40), { error: 'PASSKEY_FAILED' }).check(z.maxLength(10, 'PASSKEY_FAILED')),
        ),
      },
      { error: 'PASSKEY_FAILED' },
    ),
  },
  { error: 'PASSKEY_FAILED' },
);

const AuthenticationResponseSchema = z.object(
  {
    ...credentialShape,
    response: z.object(
      {
        clientDataJSON: base64url(4096),
        authenticatorData: base64url(8192),
        signature: base64url(2048),
        userHandle: optionalText(200),
      },
      { error: 'PASSKEY_FAILED' },
    ),
  },
  { error: 'PASSKEY_FAILED' },
);

/** The passkey the browser made, its name, and the password: a session left open is not enough to add a factor. */
export const AddPasskeySchema = z.object({
  ceremony: CeremonySchema,
  name: PasskeyNameSchema,
  password: ProofPasswordSchema,
  response: RegistrationResponseSchema,
});

export const RenamePasskeySchema = z.object({ id: z.uuid({ error: 'NOT_FOUND' }), name: PasskeyNameSchema });

/** Removing a passkey takes the password, like turning the app off. */
export const RemovePasskeySchema = z.object({ id: z.uuid({ error: 'NOT_FOUND' }), password: ProofPasswordSchema });

export const PasskeySignInSchema = z.object({ ceremony: CeremonySchema, response: AuthenticationResponseSchema });
