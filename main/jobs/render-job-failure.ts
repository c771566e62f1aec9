// A failure a render job reports with its own code rather than one derived from the error's class.
import type { JobError } from './job-store.ts';

/** A failure the render job process reports with its own code (the quality gate, the outputs' size). */
export class JobFailure extends Error {
  readonly jobError: JobError;
  constructor(jobError: JobError) {
    super(jobError.message);
    this.jobError = jobError;
  }
}
