import { FileError } from "../io/files.js";

/** The input file has errors (exit code 1); `report` holds one line per diagnostic. */
export class InputError extends FileError {
  constructor(
    file: string,
    readonly report: string,
  ) {
    super(file, "the input has errors");
  }
}
