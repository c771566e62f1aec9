// A request the studio refuses because of what it asked for (a bad setting, an unknown example, a
// file in the way), as opposed to a fault. The message is one line, meant for the user as it is.
export class StudioInputError extends Error {
  override name = 'StudioInputError';
  /** Stable, for the UI to branch on (e.g. 'invalid_settings', 'target_exists'). */
  readonly code: string;

  constructor(code: string, message: string) {
    super(message);
    this.code = code;
  }
}
