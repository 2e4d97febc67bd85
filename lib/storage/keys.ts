/**
 * What an object key may be. The service writes only keys of this shape (`u/ab/<uuid>.png`,
 * lib/assets/keys.ts), but keys also arrive from outside: a `/files/<key>` path, or the key of a
 * URL a caller passed as a model input. A name outside the rule cannot be an object of ours, so
 * nothing asks storage about it: a 300-character segment is ENAMETOOLONG on a disk (and a 500
 * from an S3 server that keeps objects as files), which would otherwise count as storage failing.
 */
const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

/** A file name's limit on Linux file systems (NAME_MAX), and in S3 servers that store objects as files. */
export const MAX_KEY_SEGMENT_LENGTH = 255;
/** Our keys are under 60 characters; S3 allows 1,024 bytes, a local path 4,096 with DATA_DIR. */
export const MAX_KEY_LENGTH = 512;

/** Segments of letters, digits, `_`, `-` and `.` (never first, so no `..` and no hidden files). */
export function isValidKey(key: string): boolean {
  if (key.length === 0 || key.length > MAX_KEY_LENGTH) return false;
  return key.split("/").every((segment) => segment.length <= MAX_KEY_SEGMENT_LENGTH && SEGMENT.test(segment));
}
