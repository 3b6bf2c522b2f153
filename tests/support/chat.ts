import { randomBytes } from 'node:crypto';
import { CHAT_API, CONSOLE_CHAT_API } from '#common/chat-api.ts';
import { type ApiSuite, TEST_SECRET, type TestClient } from './api.ts';
import { EventStreamReader } from './event-stream.ts';
import { giveSecondFactor } from './second-factor.ts';

/** A message as the widget sends it, with a client id of its own. */
export const chatMessage = (body: string, overrides: Record<string, unknown> = {}) => ({
  body,
  clientMessageId: randomBytes(16).toString('base64url'),
  page: '/en/about',
  language: 'en',
  ...overrides,
});

/**
 * A signed-in member made an operator (or `role`) with a second factor, in the browser they
 * registered with; `totpSecret` makes the app's codes for signing in elsewhere (`codeFor`).
 */
export async function signedInOperator(api: ApiSuite, role = 'operator') {
  const { client, person } = await api.member();
  await api.db().query('UPDATE accounts SET role = $2 WHERE email = $1', [person.email, role]);
  const totpSecret = await giveSecondFactor(api.db(), person.email, TEST_SECRET);
  return { client, person, totpSecret };
}

/** A visitor who has written once: their browser and the conversation's id. */
export async function visitorWithConversation(api: ApiSuite, body = 'Hello, is anyone there?') {
  const visitor = api.client();
  const answer = await visitor.post(CHAT_API.messages, chatMessage(body));
  if (answer.status !== 201) throw new Error(`First message answered ${answer.status}`);
  const [row] = await api.db().query<{ id: number }>('SELECT max(id)::integer AS id FROM chat_conversations');
  return { visitor, conversationId: row?.id as number, first: answer.body.message as { id: number } };
}

export async function openStream(client: TestClient, path: string, headers: Record<string, string> = {}) {
  return new EventStreamReader(await client.fetch('GET', path, undefined, headers));
}

export const visitorStream = (client: TestClient, headers?: Record<string, string>) =>
  openStream(client, CHAT_API.stream, headers);

export const consoleStream = (client: TestClient, headers?: Record<string, string>) =>
  openStream(client, CONSOLE_CHAT_API.stream, headers);
