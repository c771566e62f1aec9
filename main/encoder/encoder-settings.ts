// Encoder settings a user may choose over the quality preset's (CLI flags, the API's options.encoder).
// Every field is optional: what is left out comes from the quality level.
export interface EncoderSettings {
  /** x264 constant rate factor. */
  crf?: number | undefined;
  /** x264 preset. */
  preset?: string | undefined;
  /** Output pixel format, e.g. yuv420p. */
  pixelFormat?: string | undefined;
  /** Audio bitrate, e.g. 192k. */
  audioBitrate?: string | undefined;
  /** A hardware H.264 encoder instead of libx264, when ffmpeg lists it. */
  encoder?: string | undefined;
}
