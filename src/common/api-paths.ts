/** A path of an API table (`INBOX_API.message`, `STAFF_API.role`) with its `:id` filled in. */
export const withId = (path: string, id: string) => path.replace(':id', encodeURIComponent(id));
