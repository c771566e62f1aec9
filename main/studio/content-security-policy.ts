// The studio UI's Content-Security-Policy, sent with its page in browser mode and set on every
// response of our own origins in the desktop app. Everything comes from the page's own origin:
// - script-src 'self' only: the live preview imports each build of the composition from the
//   workspace's own origin, and Monaco's workers are same-origin files.
// - style-src 'unsafe-inline': Monaco writes its styles into <style> elements at run time.
// - img/media blob:: captured frames and review samples are fetched with the token and shown as blobs.
export function contentSecurityPolicy(): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "worker-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' blob: data:",
    "media-src 'self' blob:",
    "font-src 'self' data: blob:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}
