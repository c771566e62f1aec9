// Download tokens ride in the query string. What reaches a log line is the path and a re-encoded
// query built from the parsed parameters, so no spelling of a token ("%74oken=", "token[]=",
// "token%3D…" as a parameter name) survives in clear.

/** A parameter name that names a credential, in any case and with any decoration around it. */
const SECRET_NAME = /tok|key|secret|sig|auth|pass|cred/i;
/** A name short and plain enough to log as it is. */
const PLAIN_NAME = /^[A-Za-z0-9_.-]{1,40}$/;
/** The shape of a signed download token (expiry.signature), wherever it appears. */
const TOKEN_SHAPE = /\d+\.[A-Za-z0-9_-]{16,}/;
/**
 * A path value (an id, a file kind, a docs file name) plain enough to show. Anything else may be a
 * secret sent in the wrong place ("video?token=…" from an encoded "?", "video;token=…").
 */
const PLAIN_PATH_VALUE = /^[A-Za-z0-9_~-][A-Za-z0-9_.~-]{0,127}$/;

export const REDACTED = '[redacted]';

/** The query of `url` ("?…", or "" when it has none) with every credential redacted. */
export function redactQuery(url: string): string {
  const start = url.indexOf('?');
  if (start < 0) return '';
  const parts: string[] = [];
  for (const [name, value] of new URLSearchParams(url.slice(start + 1))) {
    if (!PLAIN_NAME.test(name) || TOKEN_SHAPE.test(name)) {
      parts.push(REDACTED);
    } else if (SECRET_NAME.test(name) || TOKEN_SHAPE.test(value)) {
      parts.push(`${name}=${REDACTED}`);
    } else {
      parts.push(`${name}=${encodeURIComponent(value)}`);
    }
  }
  return parts.length > 0 ? `?${parts.join('&')}` : '';
}

/** The path of `url` as it is, and its query redacted. */
export function redactUrl(url: string): string {
  const start = url.indexOf('?');
  return start < 0 ? url : `${url.slice(0, start)}${redactQuery(url)}`;
}

/** Whether a decoded path segment or parameter may be shown as it is. */
export function isPlainPathValue(value: string): boolean {
  return PLAIN_PATH_VALUE.test(value) && !TOKEN_SHAPE.test(value);
}

/** A path parameter as a log line or a message may show it. */
export function shownPathValue(value: string): string {
  return isPlainPathValue(value) ? value : REDACTED;
}

/** A query parameter's name as a problem body may show it: plain names only, never a value. */
export function describeParameterName(name: string): string {
  return PLAIN_NAME.test(name) && !TOKEN_SHAPE.test(name) ? `"${name}"` : '(name not shown)';
}
