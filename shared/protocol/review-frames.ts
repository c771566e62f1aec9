// How many frames a review samples. The workspace, a render job's review, MCP's review_video, the
// studio and `kino session review` all hold to these, so a count one face accepts every face does.
export const MAX_REVIEW_FRAMES = 24;
export const DEFAULT_REVIEW_FRAMES = 12;
