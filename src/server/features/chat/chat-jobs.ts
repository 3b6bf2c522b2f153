import { RETENTION } from '#common/retention.ts';
import type { JobDefinitions } from '#server/platform/jobs/jobs.ts';
import { pruneChat } from './chat-queries.ts';

export const chatJobs: JobDefinitions = {
  // Messages are kept RETENTION.messageDays, as the privacy policy says; presence rows of instances
  // that died and ended blocks go too.
  'chat.prune': {
    everySeconds: 60 * 60,
    run: async (_, { db }) => {
      await pruneChat(db, RETENTION.messageDays);
    },
  },
};
