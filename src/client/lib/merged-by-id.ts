/**
 * One list of messages in id order, each once, the later copy winning: a message can come both in
 * an answer and from an event stream, in either order.
 */
export function mergedById<T extends { id: number }>(messages: readonly T[], more: readonly T[]): T[] {
  const byId = new Map(messages.map((m) => [m.id, m]));
  for (const message of more) byId.set(message.id, message);
  return [...byId.values()].sort((a, b) => a.id - b.id);
}
