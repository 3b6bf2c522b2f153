-- Which claim holds a job: the runner that claimed it renews its lease while the job runs and
-- finishes it only under this value, so a claim taken over by another instance is never mistaken
-- for its own (see platform/jobs/jobs.ts).
ALTER TABLE jobs ADD COLUMN lease uuid;
