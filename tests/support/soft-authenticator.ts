import { createHash, createSign, generateKeyPairSync, type KeyObject, randomBytes } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '#common/passkey-api.ts';

/** A passkey as an authenticator keeps it: its id, its private key, its counter, and whose it is. */
export interface SoftPasskey {
  credentialId: Buffer;
  privateKey: KeyObject;
  userHandle: string;
  counter: number;
}

const UP = 0x01;
const UV = 0x04;
const AT = 0x40;

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest();
const b64 = (data: Buffer | Uint8Array) => Buffer.from(data).toString('base64url');
const uint32 = (value: number) => {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(value);
  return bytes;
};

const clientData = (type: string, challenge: string, origin: string) =>
  Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));

/**
 * An authenticator in software, for tests and the bench: makes ES256 passkeys and signs assertions
 * as a browser with a platform authenticator would hand them over (attestation "none", user
 * present and verified unless told otherwise). `counter` false makes a synced passkey that always says 0.
 */
export function createSoftAuthenticator(origin: string, options: { counter?: boolean } = {}) {
  const counts = options.counter ?? true;

  function create(request: PublicKeyCredentialCreationOptionsJSON): {
    passkey: SoftPasskey;
    response: RegistrationResponseJSON;
  } {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const coseKey = new Map<number, number | Uint8Array>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, Buffer.from(jwk.x as string, 'base64url')],
      [-3, Buffer.from(jwk.y as string, 'base64url')],
    ]);
    const credentialId = randomBytes(32);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(credentialId.length);
    const authData = Buffer.concat([
      sha256(request.rp.id ?? new URL(origin).hostname),
      Buffer.from([UP | UV | AT]),
      uint32(0),
      Buffer.alloc(16),
      idLength,
      credentialId,
      Buffer.from(isoCBOR.encode(coseKey)),
    ]);
    const attestationObject = isoCBOR.encode(
      new Map<string, unknown>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', new Uint8Array(authData)],
      ]) as never,
    );
    const passkey = { credentialId, privateKey, userHandle: request.user.id, counter: 0 };
    return {
      passkey,
      response: {
        id: b64(credentialId),
        rawId: b64(credentialId),
        type: 'public-key',
        clientExtensionResults: {},
        authenticatorAttachment: 'platform',
        response: {
          clientDataJSON: b64(clientData('webauthn.create', request.challenge, origin)),
          attestationObject: b64(attestationObject),
          transports: ['internal'],
        },
      },
    };
  }

  function assert(
    passkey: SoftPasskey,
    request: Pick<PublicKeyCredentialRequestOptionsJSON, 'challenge' | 'rpId'>,
    flags = UP | UV,
  ): AuthenticationResponseJSON {
    if (counts) passkey.counter += 1;
    const authData = Buffer.concat([
      sha256(request.rpId ?? new URL(origin).hostname),
      Buffer.from([flags]),
      uint32(counts ? passkey.counter : 0),
    ]);
    const data = clientData('webauthn.get', request.challenge, origin);
    const signature = createSign('SHA256')
      .update(Buffer.concat([authData, sha256(data)]))
      .sign(passkey.privateKey);
    return {
      id: b64(passkey.credentialId),
      rawId: b64(passkey.credentialId),
      type: 'public-key',
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
      response: {
        clientDataJSON: b64(data),
        authenticatorData: b64(authData),
        signature: b64(signature),
        userHandle: passkey.userHandle,
      },
    };
  }

  return { create, assert, userPresentOnly: UP };
}
