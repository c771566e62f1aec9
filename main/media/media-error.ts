// One error type for everything that can go wrong getting media into a render, with a stable code
// so callers (CLI, editor) can react to the kind of failure and users can search for it.

export type MediaErrorCode =
  | 'missing_asset'
  | 'media_not_a_file'
  | 'media_outside_project'
  | 'media_private_file'
  | 'media_absolute_path'
  | 'media_unsupported_scheme'
  | 'media_host_not_allowed'
  | 'media_address_not_allowed'
  | 'media_dns_failed'
  | 'media_http_error'
  | 'media_too_many_redirects'
  | 'media_too_large'
  | 'media_timeout'
  | 'media_fetch_failed'
  | 'media_unreadable'
  | 'media_corrupt_image'
  | 'media_image_too_large'
  | 'media_unsafe_format'
  | 'media_probe_failed'
  | 'media_no_video'
  | 'media_no_audio'
  | 'media_decode_failed';

export class MediaError extends Error {
  readonly code: MediaErrorCode;
  /** The source string as written in the spec, when the error is about one. */
  readonly source: string | undefined;
  constructor(code: MediaErrorCode, message: string, options: { source?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'MediaError';
    this.code = code;
    this.source = options.source;
  }
}
